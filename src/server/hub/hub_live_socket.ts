/**
 * A logger's WebSocket on the hub (#40) tied to its {@linkcode LiveLink}:
 * text messages are read one at a time in the order they came (a frame
 * after its hello), binary ones refused. Messages to the driver are few
 * and small, so each is sent while the socket is open; it is the frames,
 * inbound, that the logger thins when the link is slow.
 *
 * @module
 */
import type { LiveHub } from "../../app/hub/live_hub.ts";
import { LiveLink } from "../../app/hub/live_link.ts";

/** Serves `socket` (already upgraded) as driver `driver`'s link; `open` holds it while it lives. */
export function openLinkSocket(
  hub: LiveHub,
  driver: string,
  socket: WebSocket,
  open: Set<WebSocket>,
): LiveLink {
  const link = new LiveLink(hub, driver, (message) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  });
  open.add(socket);
  // One message at a time: a frame waits for the hello before it to be handled.
  let turn: Promise<void> = Promise.resolve();
  socket.onmessage = (event) => {
    if (typeof event.data !== "string") {
      socket.send(JSON.stringify({
        type: "error",
        field: "message",
        message: "message must be JSON text, not binary",
      }));
      return;
    }
    const text = event.data;
    turn = turn.then(() => link.receive(text)).catch(() => {});
  };
  const end = () => {
    open.delete(socket);
    link.close();
  };
  socket.onclose = end;
  socket.onerror = end;
  return link;
}
