// The table's sounds: `turn` (your turn), `card` (a card played), `trick` (a trick taken)
// and `warning` (10 seconds left). Off unless the player turns them on in the "Aa"
// dialog (localStorage `sound` = "on", settings.js). Nothing is downloaded before that:
// each file is fetched on its first play and kept decoded, so a first visit loads no
// sound. A browser that refuses to play (no user gesture yet, no Web Audio) stays
// silent; it never shows an error. The files: tools/make_sounds.py, CC0.

const NAMES = new Set(["turn", "card", "trick", "warning"]);
const VOLUME = 0.6; // the files peak at 0.55-0.7 of full scale: peaks of -7 to -10 dBFS out
const LATE = 1000; // ms: a sound whose file took longer to arrive is not played that once

let context = null;
const buffers = new Map(); // name -> Promise<AudioBuffer | null>
let chosen = null; // the choice made on this page, when storage is blocked

export function soundOn() {
  try {
    return localStorage.getItem("sound") === "on";
  } catch {
    return chosen === true; // storage blocked: the choice lasts for this page only
  }
}

/** Called by settings.js on a change: it holds when storage cannot. */
export function rememberSound(on) {
  chosen = on;
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    return null;
  }
  // A context made before any user gesture starts suspended; the next gesture unlocks it
  // (kept listening: a phone may suspend it again, after a call say). iOS wants touchend.
  const unlock = () => {
    if (context.state === "running" || context.state === "closed") return;
    context.resume().catch(() => {});
  };
  for (const type of ["pointerdown", "touchend", "click", "keydown"]) {
    addEventListener(type, unlock, { capture: true, passive: true });
  }
  return context;
}

function load(name) {
  if (!buffers.has(name)) {
    const loading = fetch(`/static/sounds/${name}.wav`)
      .then((response) =>
        response.ok ? response.arrayBuffer() : Promise.reject(new Error(String(response.status))),
      )
      .then((data) => context.decodeAudioData(data))
      .catch(() => {
        buffers.delete(name); // a failed load (offline) is tried again on the next play
        return null;
      });
    buffers.set(name, loading);
  }
  return buffers.get(name);
}

function start(ctx, buffer) {
  try {
    const source = ctx.createBufferSource();
    const gain = ctx.createGain();
    gain.gain.value = VOLUME;
    source.buffer = buffer;
    source.connect(gain).connect(ctx.destination);
    source.start();
  } catch {
    // a closed or broken context: silence
  }
}

/** Play one of the sounds, if the player turned sounds on; otherwise do nothing. */
export function play(name) {
  if (!NAMES.has(name) || !soundOn()) return;
  const ctx = audio(); // made at once, so a call from a click may start it
  if (!ctx) return;
  const asked = performance.now();
  const fresh = () => performance.now() - asked <= LATE;
  load(name).then((buffer) => {
    if (!buffer || !fresh()) return;
    if (ctx.state === "running") return start(ctx, buffer);
    // Not allowed yet (autoplay policy) or waking up: a resume granted later than LATE
    // (at the next gesture) does not play this sound then.
    ctx.resume().then(
      () => fresh() && start(ctx, buffer),
      () => {},
    );
  });
}
