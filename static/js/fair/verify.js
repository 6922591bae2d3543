// The provably fair deal, checked in the browser with WebCrypto (docs/fairness.md).
// The same procedure as app/fairness: HMAC-SHA-256(seed, "fiveup-deal/v1|CODE|MATCH|ROUND|N")
// blocks as a byte stream, integers below n by rejection sampling (one byte each), a
// Fisher–Yates shuffle of the 28 tiles in set order (0|0, 0|1, …, 6|6), five tiles to each
// seat in seat order (R6), the rest the stock in draw order, then the starter's lot (R7).
// The commitment is SHA-256 of "fiveup-commit/v1|CODE|MATCH|ROUND|SEEDHEX".

const enc = new TextEncoder();

/** The 28 tiles in set order, "0|0" … "6|6" (R1). */
export const ALL_TILES = (() => {
  const out = [];
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) out.push(`${a}|${b}`);
  return out;
})();

function hexToBytes(hex) {
  if (typeof hex !== "string" || !/^[0-9a-f]{64}$/.test(hex)) throw new Error("a seed is 64 lowercase hex digits");
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

function ids(code, match, round) {
  return `${code}|${Number(match)}|${Number(round)}`;
}

/** Hex SHA-256 commitment to a round's seed (hex), bound to table code, match and round. */
export async function commitmentOf(seedHex, code, match, round) {
  hexToBytes(seedHex);
  const text = `fiveup-commit/v1|${ids(code, match, round)}|${seedHex}`;
  return toHex(await crypto.subtle.digest("SHA-256", enc.encode(text)));
}

class ByteStream {
  constructor(key, context) { this.key = key; this.context = context; this.counter = 0; this.block = new Uint8Array(0); this.pos = 0; }
  async nextByte() {
    if (this.pos === this.block.length) {
      const msg = enc.encode(`${this.context}|${this.counter}`);
      this.block = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, msg));
      this.counter += 1;
      this.pos = 0;
    }
    return this.block[this.pos++];
  }
  /** Uniform in [0, n): a byte b is accepted if b < 256 − 256 mod n, giving b mod n. */
  async below(n) {
    const limit = 256 - (256 % n);
    for (;;) {
      const b = await this.nextByte();
      if (b < limit) return b % n;
    }
  }
}

function setOrder(a, b) { return ALL_TILES.indexOf(a) - ALL_TILES.indexOf(b); }

/** The deal a seed fixes: {hands (set order), stock (draw order), lot}. */
export async function dealFromSeed(seedHex, players, code, match, round) {
  if (![2, 3, 4].includes(players)) throw new Error("R2: 2, 3 or 4 players");
  const key = await crypto.subtle.importKey("raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const stream = new ByteStream(key, `fiveup-deal/v1|${ids(code, match, round)}`);
  const tiles = ALL_TILES.slice();
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  const hands = [];
  for (let s = 0; s < players; s++) hands.push(tiles.slice(5 * s, 5 * s + 5).sort(setOrder));
  const stock = tiles.slice(5 * players);
  const lot = await stream.below(players);
  return { hands, stock, lot };
}

function sameSet(a, b) {
  const x = [...a].sort(setOrder), y = [...b].sort(setOrder);
  return x.length === y.length && x.every((t, i) => t === y[i]);
}

const fail = (reason) => ({ ok: false, reason });

/**
 * Check a finished round against its revealed seed. `round` holds:
 *   code, match, round (number), players, seed (hex), commitment (hex, as published),
 *   starter, moves: [{seat, move, drawn?, must_play?}] (drawn may be null = hidden),
 *   hands: each seat's revealed hand at the end (R22); null for the round in play when
 *     the match was resigned (no settlement: only the deal, the draws and the laid
 *     tiles are checked),
 *   previous: the previous round's settlement {result, finisher} or null in round 1,
 *   deal (optional): a claimed {hands, stock} (a record's deal) to compare with the seed's.
 * Returns {ok, reason}: reason is "deal verified" or what is wrong.
 */
export async function verifyRound(round) {
  try {
    const { code, match, players, seed, moves, previous } = round;
    const published = String(round.commitment || "").toLowerCase();
    if ((await commitmentOf(seed, code, match, round.round)) !== published) {
      return fail("the commitment does not match the revealed seed");
    }
    const deal = await dealFromSeed(seed, players, code, match, round.round);
    if (round.deal) {
      for (let s = 0; s < players; s++) {
        if (!sameSet(round.deal.hands[s] || [], deal.hands[s])) return fail(`seat ${s}'s hand is not the committed deal's`);
      }
      const claimed = round.deal.stock || [];
      for (let k = 0; k < Math.max(claimed.length, deal.stock.length); k++) {
        if (claimed[k] !== deal.stock[k]) return fail(`the stock order is not the committed one (tile ${k + 1})`);
      }
    }
    const starter = previous && previous.result === "domino" ? previous.finisher : deal.lot; // R7, R23
    if (round.starter !== starter) return fail(`seat ${round.starter} started, but the committed ${previous && previous.result === "domino" ? "finisher" : "lot"} is seat ${starter}`);
    const hands = deal.hands.map((h) => new Set(h));
    const mustPlay = new Array(players).fill(null);
    let next = 0;
    for (let i = 0; i < moves.length; i++) {
      const { seat, move, drawn } = moves[i];
      const where = `move ${i + 1}`;
      if (!(seat >= 0 && seat < players)) return fail(`${where}: no seat ${seat}`);
      if (move === "draw") {
        if (next >= deal.stock.length) return fail(`${where}: a draw from an empty stock (R19)`);
        const tile = deal.stock[next++];
        if (drawn != null && drawn !== tile) return fail(`${where}: seat ${seat} drew ${drawn}, but the committed stock gives ${tile} (R18)`);
        hands[seat].add(tile);
        if (moves[i].must_play) mustPlay[seat] = tile;
      } else if (move === "pass") {
        if (next < deal.stock.length) return fail(`${where}: a pass while the committed stock still holds tiles (R19)`);
      } else {
        const tile = String(move).split("@")[0];
        if (!hands[seat].has(tile)) return fail(`${where}: seat ${seat} laid ${tile}, which the committed deal and draws did not give them`);
        if (mustPlay[seat] !== null && mustPlay[seat] !== tile) return fail(`${where}: seat ${seat} had to lay the drawn ${mustPlay[seat]} (R18)`);
        mustPlay[seat] = null;
        hands[seat].delete(tile);
      }
    }
    for (let s = 0; round.hands && s < players; s++) {
      if (!sameSet(round.hands[s] || [], hands[s])) return fail(`seat ${s}'s revealed hand is not what the committed deal and the moves leave (R22)`);
    }
    return { ok: true, reason: "deal verified" };
  } catch (e) {
    return fail(`cannot verify: ${e && e.message ? e.message : e}`);
  }
}

/** The argument of verifyRound for round `index` of a JSON-form record (docs/record.md). */
export function recordRound(record, index) {
  const r = record.rounds[index];
  const prev = index > 0 ? record.rounds[index - 1].end : null;
  return {
    code: record.table, match: record.match, round: r.round, players: record.seats.length,
    seed: r.seed, commitment: r.commitment, starter: r.starter, moves: r.moves,
    hands: r.end ? r.end.hands : null, previous: prev, deal: { hands: r.hands, stock: r.stock },
  };
}
