// HTTP calls (docs/protocol.md) and the seat tokens kept in localStorage.

export class ApiError extends Error {
  /** retryAfter: the seconds of a 429's Retry-After header (else null). */
  constructor(code, message, status, retryAfter = null) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** One JSON request (same-origin cookies go with it): its answer's body, or an ApiError
 * with the server's code and message (docs/protocol.md, Errors). */
export async function call(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError("network", String(e && e.message || e), 0);
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const d = data && data.detail;
    const wait = Number.parseInt(res.headers.get("Retry-After") || "", 10);
    const retryAfter = res.status === 429 && wait > 0 ? wait : null;
    if (d && typeof d === "object" && !Array.isArray(d) && d.code) throw new ApiError(d.code, d.message, res.status, retryAfter);
    if (res.status === 422) throw new ApiError("invalid_name", Array.isArray(d) ? d.map((x) => x.msg).join("; ") : "", 422);
    throw new ApiError(res.status === 404 ? "not_found" : "http_" + res.status, typeof d === "string" ? d : "", res.status);
  }
  return data;
}

export const api = {
  createTable: (b) => call("POST", "/api/tables", b),
  // the signed-in profile (401 for a guest); ratings (docs/ratings.md)
  me: () => call("GET", "/api/profile"),
  computerRatings: () => call("GET", "/api/ratings/computer"),
  tableProfiles: (code) => call("GET", `/api/tables/${encodeURIComponent(code)}/profiles`),
  // friends, and inviting them to a table (docs/friends.md, docs/invitations.md)
  friends: () => call("GET", "/api/friends"),
  inviteFriends: (code, handles, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/invitations`, { handles }, token),
  // a club of yours: every other member is invited (docs/invitations.md)
  myClubs: () => call("GET", "/api/clubs"),
  inviteClub: (code, club, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/invitations`, { club }, token),
  lobby: () => call("GET", "/api/tables"),
  finished: () => call("GET", "/api/tables?status=finished"),
  table: (code) => call("GET", `/api/tables/${encodeURIComponent(code)}`),
  join: (code, name, seat) => call("POST", `/api/tables/${encodeURIComponent(code)}/join`, { name, seat }),
  seat: (code, seat, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/seat`, { seat }, token),
  leave: (code, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/leave`, undefined, token),
  kick: (code, seat, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/kick`, { seat }, token),
  start: (code, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/start`, undefined, token),
  history: (code, token) => call("GET", `/api/tables/${encodeURIComponent(code)}/history`, undefined, token),
  rematch: (code, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/rematch`, undefined, token),
  // computer players (static/js/ui/bots.js)
  practice: (b) => call("POST", "/api/practice", b),
  putBot: (code, seat, level, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/bots`, { seat, level }, token),
  removeBot: (code, seat, token) => call("DELETE", `/api/tables/${encodeURIComponent(code)}/bots/${seat}`, undefined, token),
  // devices, resign, replace (static/js/ui/device.js)
  deviceLink: (code, seat, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/seats/${seat}/link`, undefined, token),
  claim: (code, link) => call("POST", `/api/tables/${encodeURIComponent(code)}/claim`, { link }),
  claimSeat: (code, link) => call("POST", `/api/tables/${encodeURIComponent(code)}/claim/seat`, { link }),
  resign: (code, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/resign`, undefined, token),
  // moderation (static/js/ui/chat.js): a report; the host's removal of a message's author
  report: (code, body, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/reports`, body, token),
  remove: (code, body, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/remove`, body, token),
  replace: (code, seat, by, level, token) => call("POST", `/api/tables/${encodeURIComponent(code)}/seats/${seat}/replace`, { by, level }, token),
};

const TKEY = (code) => "fiveup.seat." + String(code).toUpperCase();

export function loadSeat(code) {
  try {
    const raw = localStorage.getItem(TKEY(code));
    return raw ? JSON.parse(raw) : null;
  } catch { return null; }
}

export function saveSeat(code, token, seat) {
  try { localStorage.setItem(TKEY(code), JSON.stringify({ token, seat })); } catch { /* ignore */ }
}

export function forgetSeat(code) {
  try { localStorage.removeItem(TKEY(code)); } catch { /* ignore */ }
}

export function loadName() {
  try { return localStorage.getItem("fiveup.name") || ""; } catch { return ""; }
}

export function saveName(n) {
  try { localStorage.setItem("fiveup.name", n); } catch { /* ignore */ }
}
