/**
 * The HTTP server's listening socket gets the small fixed send buffer asked
 * for (Linux reports twice the size set), and a connection it accepts
 * inherits it: read back with getsockopt on the descriptors found through
 * /proc. Linux only; elsewhere the server says why it left the platform's
 * sizing.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { startHttp } from "../../src/server/http.ts";
import {
  limitListenerSendBuffer,
  locateTcpConnection,
  locateTcpListener,
  readSendBuffer,
  WANTED_SEND_BUFFER_BYTES,
} from "../../src/server/tcp_send_buffer.ts";

const linux = Deno.build.os === "linux";

Deno.test({
  name: "a started server's listener and an accepted connection have the small send buffer",
  ignore: !linux,
  async fn() {
    const kv = await Deno.openKv(":memory:");
    const app = await createApp({ kv });
    const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
    let conn: Deno.TcpConn | null = null;
    try {
      assert.equal(server.sendBuffer.send_buffer_bytes, 2 * WANTED_SEND_BUFFER_BYTES);
      const listener = locateTcpListener(server.port);
      assert.notEqual(listener, null);
      assert.equal(readSendBuffer(listener!), 2 * WANTED_SEND_BUFFER_BYTES);

      // A raw connection whose request is answered has been accepted by the server.
      conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
      await conn.write(
        new TextEncoder().encode("GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n"),
      );
      const head = new Uint8Array(12);
      let got = 0;
      while (got < head.length) {
        const n = await conn.read(head.subarray(got));
        assert.notEqual(n, null, "the server closed before answering");
        got += n!;
      }
      assert.equal(new TextDecoder().decode(head), "HTTP/1.1 200");
      const clientPort = (conn.localAddr as Deno.NetAddr).port;
      const accepted = locateTcpConnection(server.port, clientPort);
      assert.notEqual(accepted, null);
      assert.equal(readSendBuffer(accepted!), 2 * WANTED_SEND_BUFFER_BYTES);
      // The client's own end is not the server's: it kept the platform's size.
      const own = locateTcpConnection(clientPort, server.port);
      assert.notEqual(own, null);
      assert.notEqual(readSendBuffer(own!), 2 * WANTED_SEND_BUFFER_BYTES);
    } finally {
      conn?.close();
      await server.close();
      await app.shutdown();
      kv.close();
    }
  },
});

Deno.test({
  name: "no listener on the port: the platform's sizing stays and the note says why",
  ignore: !linux,
  fn() {
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    assert.deepEqual(limitListenerSendBuffer(port, WANTED_SEND_BUFFER_BYTES), {
      send_buffer_bytes: null,
      note:
        "platform default (listening socket not found in /proc, which Deno reads only with --allow-all)",
    });
    assert.equal(locateTcpListener(port), null);
  },
});
