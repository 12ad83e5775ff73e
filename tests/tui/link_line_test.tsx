import { strict as assert } from "node:assert";
import { fitLinkParts, LINK_RANK, linkLine } from "../../src/tui/link_line.ts";
import type { LinkState } from "../../src/tui/live_figures.ts";
import { LiveView } from "../../src/tui/live_view.tsx";
import { fakeTelemetry, memoryApp, renderSized, waitFor } from "./_harness.tsx";

const BUSY: LinkState = {
  state: "connected",
  console: "192.168.1.30",
  listen: "0.0.0.0:33740",
  format: "A",
  pps: 240,
  drops: 1234567,
  kernelDrops: 17,
  record: { mb: 1234.5, error: null },
  lastPacketS: 0,
  stale: false,
};

Deno.test("the link line gives way part by part: words first, then the least figures, warnings last", () => {
  assert.equal(
    linkLine(BUSY, 1000),
    "connected  console 192.168.1.30  format A  240 pkt/s  drops 1234567  kernel drops 17  " +
      "rec 1234.5 MB",
  );
  // 100 columns less the marker.
  assert.equal(
    linkLine(BUSY, 98),
    "connected  console 192.168.1.30  fmt A  240 pkt/s  drops 1234567  kernel drops 17  rec 1234.5 MB",
  );
  // 80 columns: the format goes before any warning is shortened.
  assert.equal(
    linkLine(BUSY, 78),
    "connected  192.168.1.30  240/s  drops 1234567  kernel drops 17  rec 1234.5 MB",
  );
  assert.equal(linkLine(BUSY, 60), "connected  drops 1234567  kernel drops 17  rec 1234.5 MB");
  assert.equal(linkLine(BUSY, 50), "connected  drops 1234567  kdrops 17  rec 1234.5 MB");
  // Only what no step can make fit is cut.
  assert.equal(linkLine(BUSY, 40), "connected  drops 1234567  kdrops 17  re…");
  for (const w of [98, 78, 60, 50, 40]) assert.ok([...linkLine(BUSY, w)].length <= w);

  // A lost link keeps its words longest; a kernel drop count of 0 may go.
  const lost = { ...BUSY, stale: true, lastPacketS: 12, kernelDrops: 0, record: null };
  assert.equal(
    linkLine(lost, 78),
    "link lost: last packet 12 s ago  192.168.1.30  240/s  drops 1234567  kdrops 0",
  );
  assert.equal(linkLine(lost, 60), "lost 12 s ago  192.168.1.30  240/s  drops 1234567  kdrops 0");
  assert.equal(linkLine(lost, 40), "lost 12 s ago  drops 1234567  kdrops 0");
  assert.equal(linkLine(lost, 30), "lost 12 s ago  drops 1234567");
  assert.equal(
    linkLine({ ...BUSY, record: { mb: 2, error: "disk full" } }, 60),
    "connected  drops 1234567  kernel drops 17  rec STOPPED",
  );
});

Deno.test("a part added with a high rank outlasts the figures below it", () => {
  const parts = [
    { full: "connected", droppable: false, rank: LINK_RANK.state },
    { full: "format A", short: "fmt A", droppable: true, rank: LINK_RANK.format },
    { full: "drops 5", droppable: false, rank: LINK_RANK.drops },
    { full: "store full: laps not saved", short: "store full", droppable: false, rank: 95 },
  ];
  assert.equal(fitLinkParts(parts, 80), "connected  format A  drops 5  store full: laps not saved");
  assert.equal(fitLinkParts(parts, 52), "connected  drops 5  store full: laps not saved");
  assert.equal(fitLinkParts(parts, 30), "connected  drops 5  store full");
});

Deno.test("the live view's link line shows kernel drops and the capture whole at 80 and 100 columns", async () => {
  const { app, close } = await memoryApp();
  app.attachTelemetry(fakeTelemetry({
    kernel_drops: 3,
    record: { path: "/tmp/x.gt7", bytes: 12.3 * 2 ** 20, files_rotated: 0, error: null },
  }));
  for (
    const [columns, want] of [
      [
        100,
        "● connected  console 192.168.1.30  format A  60 pkt/s  drops 5  kernel drops 3  rec 12.3 MB",
      ],
      [80, "● connected  192.168.1.30  fmt A  60/s  drops 5  kernel drops 3  rec 12.3 MB"],
    ] as const
  ) {
    const r = renderSized(
      <LiveView
        app={app}
        columns={columns}
        rows={23}
        outDir="."
        inputActive
        setCapturing={() => {}}
      />,
      columns,
      24,
    );
    const text = await waitFor(r.lastFrame, (t) => t.includes("connected"));
    assert.equal(text.split("\n")[0], want);
    r.unmount();
  }
  close();
});
