// The WebSocket of one game page (docs/protocol.md §4–§6, §12): `hello` first, then
// every server message goes to the handler for its type. An unknown type is an
// error. A dropped connection is retried with growing delays; a refused handshake
// (close 4xxx) is not, unless the caller says otherwise.

const DELAYS = [500, 1000, 2000, 4000, 8000, 15000];
const PING_MS = 25000;

/**
 * handlers: {state, event, error, pong, deleted} — each gets the parsed message.
 * hello(): the token to send (null: spectator).
 * onStatus(status, closeCode): "connecting" | "open" | "retrying" | "closed".
 * onClose(code): return "retry" (default for drops), "stop", or "now" (reconnect at once).
 * onProtocolError(error): a message the client does not understand.
 */
export function openSocket({ url, hello, handlers, onStatus, onClose, onProtocolError }) {
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let pingTimer = null;
  let stopped = false;

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    onStatus(attempt ? "retrying" : "connecting");
    const current = new WebSocket(url);
    socket = current;
    current.addEventListener("open", () => {
      if (current !== socket) return;
      current.send(JSON.stringify({ type: "hello", token: hello() }));
      onStatus("open");
    });
    current.addEventListener("message", (event) => {
      if (current !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        onProtocolError(new Error("the server sent something that is not JSON"));
        return;
      }
      const handle = handlers[message?.type];
      if (!handle) {
        onProtocolError(new Error(`unknown message type: ${message?.type}`));
        return;
      }
      if (message.type === "state") attempt = 0;
      handle(message);
    });
    current.addEventListener("close", (event) => {
      if (current !== socket) return;
      socket = null;
      const decision = stopped
        ? "stop"
        : onClose(event.code) || (event.code >= 4000 ? "stop" : "retry");
      if (decision === "stop") {
        onStatus("closed", event.code);
      } else if (decision === "now") {
        attempt = 0;
        connect();
      } else {
        const delay = DELAYS[Math.min(attempt, DELAYS.length - 1)] * (1 + Math.random() * 0.3);
        attempt += 1;
        onStatus("retrying", event.code);
        retryTimer = setTimeout(connect, delay);
      }
    });
  }

  pingTimer = setInterval(() => send({ type: "ping" }), PING_MS);

  function send(message) {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  connect();
  return {
    send,
    /** Drop the connection and start a fresh one (e.g. after taking a seat). */
    reconnect() {
      const old = socket;
      socket = null;
      attempt = 0;
      old?.close();
      connect();
    },
    /** Back in view or back online: retry now instead of waiting. */
    wake() {
      if (!socket && retryTimer && !stopped) connect();
    },
    get open() {
      return socket?.readyState === WebSocket.OPEN;
    },
    close() {
      stopped = true;
      clearInterval(pingTimer);
      clearTimeout(retryTimer);
      socket?.close();
    },
  };
}
