/**
 * The survey engine: one call per telemetry frame turns what the wheels
 * feel into border evidence (REFERENCE.md 2.1-2.7, 2.10). Pure and
 * synchronous; saving, naming the circuit and remembering widths are the
 * application's job.
 *
 * @module
 */
import type { FinishCrossing, Kind, Side } from "../bundle/types.ts";
import { FLAG, type Frame } from "../gt7/frame.ts";
import { MIN_CONTACT_SPEED, wheelContacts } from "./contacts.ts";
import { CorneringEstimator } from "./cornering_width.ts";
import { EdgeRideEstimator } from "./edge_ride_width.ts";
import { crossingAt, FINISH, isRollover } from "./finish_line.ts";
import { RunEvidence } from "./run_evidence.ts";
import { changedWheels, straddleSide, transitionSide } from "./surface_rules.ts";
import { type RememberedWidth, type WidthInUse, widthInUse } from "./track_width.ts";

/** Closest spacing of straddle and mark points, metres. */
export const POINT_SPACING = 2.0;

/** The manual kinds a driver can arm. */
export type MarkKind = Extract<Kind, "wall" | "runoff" | "edge">;

/** A mark armed for one side. */
export interface ArmedMark {
  side: Side;
  kind: MarkKind;
}

/** Counts of what the engine has seen and laid. */
export interface SurveyCounters {
  /** Frames fed, gated or not. */
  frames: number;
  /** Frames that carried surface data and were used. */
  used: number;
  /** Surface transitions seen. */
  transitions: number;
  /** Points laid per kind (a point on a cell already holding its kind counts too). */
  auto: number;
  straddle: number;
  manual: number;
}

const PAUSED_OR_LOADING = FLAG.paused | FLAG.loading;

/** Turns frames into one run's border evidence and finish crossings. */
export class SurveyEngine {
  /** The run's cells. */
  readonly evidence = new RunEvidence();
  /** What was seen so far. */
  readonly counters: SurveyCounters = {
    frames: 0,
    used: 0,
    transitions: 0,
    auto: 0,
    straddle: 0,
    manual: 0,
  };
  readonly #cornering = new CorneringEstimator();
  readonly #edgeRide = new EdgeRideEstimator();
  readonly #contacts = new Float64Array(8);
  #assumed: number;
  #memory: RememberedWidth | null = null;
  #width: WidthInUse;
  #carId: number | null = null;
  #prevLetters: string | null = null;
  #prevX = 0;
  #prevZ = 0;
  #prevLap = -1;
  #straddleAnchor: [number, number] | null = null;
  #markAnchor: [number, number] | null = null;
  #mark: ArmedMark | null = null;
  #crossings: FinishCrossing[] = [];
  #loadedCrossings: FinishCrossing[] = [];
  #changes = 0;

  /** Starts a run that assumes `assumedWidth` metres until it measures one. */
  constructor(assumedWidth: number) {
    this.#assumed = assumedWidth;
    this.#width = widthInUse(null, null, null, assumedWidth);
  }

  /** Increases whenever the run's cells or crossings change; cheap to poll. */
  get changes(): number {
    return this.#changes;
  }

  /** The car of the latest frame, or null before any. */
  get carId(): number | null {
    return this.#carId;
  }

  /** The width new points are laid with, and where it comes from. */
  get width(): WidthInUse {
    return this.#width;
  }

  /** Accepted cornering ticks and solved edge rides for the current car. */
  get widthSamples(): { cornering: number; edge_ride: number } {
    return { cornering: this.#cornering.samples, edge_ride: this.#edgeRide.samples };
  }

  /** The measurement worth remembering for the current car, or null. */
  measuredWidth(): RememberedWidth | null {
    const c = this.#cornering.estimate();
    if (c !== null) return { tw_m: c, samples: this.#cornering.samples, source: "cornering" };
    const e = this.#edgeRide.estimate();
    if (e !== null) return { tw_m: e, samples: this.#edgeRide.samples, source: "edge_ride" };
    return null;
  }

  /** Sets the width remembered for `carId`; ignored when another car is being driven now. */
  setMemory(carId: number, memory: RememberedWidth | null): void {
    if (this.#carId !== null && this.#carId !== carId) return;
    this.#carId = carId;
    this.#memory = memory;
    this.#refreshWidth();
  }

  /** The armed mark, or null. */
  get mark(): ArmedMark | null {
    return this.#mark;
  }

  /** Arms a mark for one side (suspending straddle tracing), or disarms with null. */
  arm(mark: ArmedMark | null): void {
    this.#mark = mark === null ? null : { side: mark.side, kind: mark.kind };
    this.#markAnchor = null;
    this.#straddleAnchor = null;
  }

  /** Crossings recorded by this run. */
  get crossings(): readonly FinishCrossing[] {
    return this.#crossings;
  }

  /** Crossings of the circuit's stored bundle (they count towards the 50 held). */
  get loadedCrossings(): readonly FinishCrossing[] {
    return this.#loadedCrossings;
  }

  /** Replaces the stored crossings the run builds on (when the circuit becomes known). */
  loadCrossings(crossings: readonly FinishCrossing[]): void {
    this.#loadedCrossings = crossings.map((c) => ({ ...c }));
  }

  /**
   * Starts afresh on another circuit: forgets the run's cells, crossings
   * and the stored crossings; the width measurements stay (same car).
   */
  resetCircuit(): void {
    this.evidence.clear();
    this.#crossings = [];
    this.#loadedCrossings = [];
    this.#straddleAnchor = null;
    this.#markAnchor = null;
    this.#changes++;
  }

  #refreshWidth(): void {
    const next = widthInUse(
      this.#cornering.estimate(),
      this.#memory,
      this.#edgeRide.estimate(),
      this.#assumed,
    );
    if (next.tw_m !== this.#width.tw_m || next.source !== this.#width.source) this.#width = next;
  }

  #lay(kind: Kind, side: Side, x: number, z: number, y: number, hx: number, hz: number): void {
    if (this.evidence.lay(kind, side, x, z, y, hx, hz, this.#width.tw_m)) this.#changes++;
  }

  /** Feeds one frame. Never throws on well-formed frames; costs about a microsecond. */
  step(frame: Frame): void {
    const c = this.counters;
    c.frames++;
    if (frame.carId !== this.#carId) {
      this.#carId = frame.carId;
      this.#cornering.reset();
      this.#edgeRide.reset();
      this.#memory = null;
      this.#refreshWidth();
    }
    const prevLap = this.#prevLap;
    this.#prevLap = frame.currentLap;
    if ((frame.flags & PAUSED_OR_LOADING) !== 0) return;
    const ext = frame.surface;
    if (ext === null || ext.surface.length < 4) return;
    c.used++;

    const x = frame.posX;
    const z = frame.posZ;
    const speed = frame.speed;
    const vx = frame.velX;
    const vz = frame.velZ;
    const vh = Math.sqrt(vx * vx + vz * vz);
    const moving = vh > 0 && Number.isFinite(vh);
    const fx = moving ? vx / vh : 0;
    const fz = moving ? vz / vh : 0;

    if (isRollover(prevLap, frame.currentLap) && speed >= FINISH.minSpeed && moving) {
      if (this.#crossings.length + this.#loadedCrossings.length < FINISH.maxHeld) {
        this.#crossings.push(crossingAt(x, z, fx, fz, frame.currentLap));
        this.#changes++;
      }
    }

    const before = this.#cornering.samples;
    this.#cornering.observe(speed, frame.angVelY, frame.brake, frame.wheelRps, frame.tyreRadius);
    const edgeBefore = this.#edgeRide.samples;

    const letters = ext.surface;
    const prev = this.#prevLetters;
    const wheelbase = ext.wheelbase;
    const placed = speed >= MIN_CONTACT_SPEED && moving && wheelbase > 0;
    if (prev !== null && prev !== letters) {
      c.transitions++;
      const changed = changedWheels(prev, letters);
      if (moving && wheelbase > 0) {
        for (let w = 0; w < 4; w++) {
          if ((changed & (1 << w)) === 0) continue;
          const wasOn = prev.charCodeAt(w) === 84;
          const isOn = letters.charCodeAt(w) === 84;
          if (wasOn === isOn) continue;
          this.#edgeRide.observe({
            wheel: w,
            out: wasOn,
            tick: c.frames,
            x: (x + this.#prevX) / 2,
            z: (z + this.#prevZ) / 2,
            fx,
            fz,
          }, wheelbase);
        }
      }
      if (this.#cornering.samples !== before || this.#edgeRide.samples !== edgeBefore) {
        this.#refreshWidth();
      }
      const side = transitionSide(prev, letters);
      if (side !== null && placed) {
        const p = wheelContacts(x, z, fx, fz, wheelbase, this.#width.tw_m, this.#contacts);
        for (let w = 0; w < 4; w++) {
          if ((changed & (1 << w)) === 0) continue;
          this.#lay("auto", side, p[2 * w], p[2 * w + 1], frame.posY, fx, fz);
          c.auto++;
        }
      }
    } else if (this.#cornering.samples !== before) {
      this.#refreshWidth();
    }
    this.#prevLetters = letters;
    this.#prevX = x;
    this.#prevZ = z;

    const mark = this.#mark;
    if (mark !== null) {
      if (!placed) return;
      const half = (mark.side === "L" ? 0.5 : -0.5) * this.#width.tw_m;
      const px = x + fz * half; // leftOf(fx, fz) = (fz, -fx)
      const pz = z - fx * half;
      const anchor = this.#markAnchor;
      if (anchor !== null && Math.hypot(px - anchor[0], pz - anchor[1]) < POINT_SPACING) return;
      this.#markAnchor = [px, pz];
      this.#lay(mark.kind, mark.side, px, pz, frame.posY, fx, fz);
      c.manual++;
      return;
    }
    const side = straddleSide(letters);
    if (side === null) {
      this.#straddleAnchor = null;
      return;
    }
    if (!placed) return;
    const half = (side === "L" ? 0.5 : -0.5) * this.#width.tw_m;
    const px = x + fz * half;
    const pz = z - fx * half;
    const anchor = this.#straddleAnchor;
    if (anchor !== null && Math.hypot(px - anchor[0], pz - anchor[1]) < POINT_SPACING) return;
    this.#straddleAnchor = [px, pz];
    this.#lay("straddle", side, px, pz, frame.posY, fx, fz);
    c.straddle++;
  }
}
