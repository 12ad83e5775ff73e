/** The sessions view's `m` key: a MoTeC log of the picked lap, or of the whole session. */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { readLd, readLdx } from "../_motec_ld_reader.ts";
import { SessionsView } from "../../src/tui/sessions_view.tsx";
import { lapExportBase, sessionExportBase } from "../../src/app/laps/export_names.ts";
import { feed, frames, KEY, memoryApp, SUZUKA, waitFor } from "./_harness.tsx";

Deno.test({
  name: "m writes the session's MoTeC log from the sessions, the lap's from its laps",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const dir = await Deno.makeTempDir();
    const sessionBase = sessionExportBase(await app.sessions.get(1));
    const lapBase = lapExportBase(
      await app.sessions.lap(1),
      (await app.sessions.get(1)).track_name,
    );
    const r = render(
      <SessionsView
        app={app}
        columns={120}
        rows={23}
        outDir={dir}
        inputActive
        setCapturing={() => {}}
      />,
    );
    try {
      await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
      assert.match(r.lastFrame() ?? "", /m MoTeC/);
      r.stdin.write("m");
      const session = join(dir, `${sessionBase}.ld`);
      await waitFor(r.lastFrame, (t) => t.includes(`wrote ${session} and its .ldx`));
      const log = readLd(await Deno.readFile(session));
      assert.equal(log.header.vehicle, "McLaren VGT");
      assert.equal(log.header.event.session, "Session 1");
      assert.equal(log.channels[0].count, 5942);
      const ldx = readLdx(await Deno.readTextFile(join(dir, `${sessionBase}.ldx`)));
      assert.deepEqual(ldx.beaconsUs, [99_033_333]);

      r.stdin.write(KEY.enter);
      await waitFor(r.lastFrame, (t) => t.includes("Esc back"));
      r.stdin.write("m");
      const lap = join(dir, `${lapBase}.ld`);
      await waitFor(r.lastFrame, (t) => t.includes(`wrote ${lap} and its .ldx`));
      assert.equal(readLd(await Deno.readFile(lap)).header.shortComment, "Lap 1 - 1:39.036");
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
        `${lapBase}.ld`,
        `${lapBase}.ldx`,
        `${sessionBase}.ld`,
        `${sessionBase}.ldx`,
      ]);
    } finally {
      r.unmount();
      await Deno.remove(dir, { recursive: true });
      close();
    }
  },
});
