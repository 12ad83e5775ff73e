/**
 * Sessions of synthetic laps for the dashboard tests: a seeded drive fed
 * through the live recorder, its session then named after a circuit.
 *
 * @module
 */
import type { App } from "../../src/app/create_app.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";

/** What to drive. */
export interface DriveSpec {
  /** Picks the circuit (the same seed, the same circuit) and the drive. */
  seed: number;
  laps: number;
  /** The circuit's name given to the session. */
  track: string;
  carId?: number;
  /** Another first packet id changes the lap times of the same circuit. */
  startPacketId?: number;
}

/** Drives `spec` into a new live session, names it, and returns it with its lap times. */
export async function driveSession(
  app: App,
  spec: DriveSpec,
): Promise<{ session: Session; times: readonly number[] }> {
  const drive = new SyntheticDrive({
    seed: spec.seed,
    laps: spec.laps,
    carId: spec.carId,
    startPacketId: spec.startPacketId,
  });
  for (const frame of drive.frames()) app.live.ingest(frame);
  await app.live.flush();
  const [newest] = await app.sessions.list();
  const session = await app.sessions.rename(newest.id, spec.track);
  return { session, times: drive.plan.lapTimesMs };
}
