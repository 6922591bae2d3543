// Sounds, generated with WebAudio (no sound files): your turn, a scoring play, the end
// of a round. Nothing plays before the user has interacted with the page (browsers
// require it, and a page should not start making noise by itself); the mute choice is
// kept in localStorage["fiveup.mute"].

const KEY = "fiveup.mute";
let ctx = null;
let interacted = false;

/** What was asked to play, for the tests: [{name, played}] (played: false when muted or before any interaction). */
export const soundLog = [];

function onFirstInteraction() {
  interacted = true;
  for (const ev of ["pointerdown", "keydown"]) window.removeEventListener(ev, onFirstInteraction, true);
}
for (const ev of ["pointerdown", "keydown"]) window.addEventListener(ev, onFirstInteraction, true);

export function isMuted() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

export function setMuted(m) {
  try { localStorage.setItem(KEY, m ? "1" : "0"); } catch { /* private mode */ }
}

// Notes as [frequency Hz, start s, length s]; a soft sine with a short envelope.
const TUNES = {
  turn: [[660, 0, 0.09], [880, 0.11, 0.12]],
  score: [[523, 0, 0.07], [659, 0.06, 0.07], [784, 0.12, 0.12]],
  round: [[784, 0, 0.12], [659, 0.13, 0.12], [523, 0.26, 0.2]],
};

/** Play a named sound ("turn", "score", "round") if allowed; returns whether it played. */
export function playSound(name) {
  const allowed = interacted && !isMuted() && !!TUNES[name];
  soundLog.push({ name, played: allowed });
  if (soundLog.length > 100) soundLog.shift();
  if (!allowed) return false;
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return false;
    if (!ctx) ctx = new AC();
    if (ctx.state === "suspended") ctx.resume();
    const t0 = ctx.currentTime + 0.01;
    for (const [f, at, len] of TUNES[name]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0, t0 + at);
      gain.gain.linearRampToValueAtTime(0.12, t0 + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
  } catch { return false; }
  return true;
}

/**
 * The sounds a new frame calls for, comparing the view before and after it (pure):
 * "round" when a round or the match has just ended, else "score" when the newest move
 * scored, and "turn" when it has just become `you`'s turn.
 */
export function soundsFor(prev, next, you) {
  if (!prev || !next) return [];
  const out = [];
  const over = (v) => v.phase === "round_over" || v.phase === "match_over";
  if (over(next) && !over(prev)) return ["round"];
  const log = (next.log || []).filter((e) => e.type === "move");
  const before = (prev.log || []).filter((e) => e.type === "move").length;
  if (next.round === prev.round && log.length > before && log[log.length - 1].points > 0) out.push("score");
  const mine = (v) => you !== null && v.phase === "playing" && v.turn === you;
  if (mine(next) && !mine(prev)) out.push("turn");
  return out;
}
