/*
 * resend.js: a move the server could not carry out because the table's records were out of
 * reach (an error frame with the code "unavailable": the database is restarting) is sent
 * again by itself, with the same id, after a jittered back-off (half to all of 1 s, 2 s,
 * 4 s ... 8 s), as long as the table is where it was when the player made the move (the
 * page's last seq has not moved). The id makes a repeat a no-op, so the move is played once
 * or refused plainly. It gives up after about half a minute, or as soon as the table moves
 * on, and then says so (the player looks and chooses again).
 *
 * Owns: the moves waiting for an answer (movesRemember), sent again (movesRetry) or
 * answered (movesForget).
 */

const GIVE_UP_MS = 30000;
const pending = new Map();   // id -> { frame, seq, tries, since, timer }

/** A move just sent (``frame`` with its id) while the page was at ``seq``. */
export function movesRemember(frame, seq) {
  pending.set(frame.id, { frame, seq, tries: 0, since: Date.now(), timer: null });
}

/** The move ``id`` was answered (played, or refused for a reason of its own): forget it. */
export function movesForget(id) {
  const move = pending.get(id);
  if (!move) return;
  window.clearTimeout(move.timer);
  pending.delete(id);
}

/**
 * The move ``id`` was answered "unavailable": plan its resend; false if it is not a move
 * this page waits for. ``send`` sends a frame (false when the socket is not open),
 * ``seqNow`` gives the page's last seq, ``gaveUp`` is called when it will not be sent again.
 */
export function movesRetry(id, { send, seqNow, gaveUp }) {
  const move = pending.get(id);
  if (!move) return false;
  window.clearTimeout(move.timer);
  plan(move, { send, seqNow, gaveUp });
  return true;
}

function plan(move, hooks) {
  const ceiling = Math.min(8000, 1000 * Math.pow(2, move.tries));
  move.tries += 1;
  move.timer = window.setTimeout(() => again(move, hooks), ceiling / 2 + Math.random() * ceiling / 2);
}

function again(move, hooks) {
  if (hooks.seqNow() !== move.seq || Date.now() - move.since > GIVE_UP_MS) {
    pending.delete(move.frame.id);
    hooks.gaveUp();
    return;
  }
  if (!hooks.send(move.frame)) plan(move, hooks);   // not connected now: wait for the socket
}
