/**
 * The car's slowly changing systems, advanced once per tick from what the
 * driver model does: gearbox, fuel, turbo boost, tyre temperatures and fluid
 * temperatures. Every update is deterministic.
 *
 * @module
 */
import { type CarSpec, engineRpm, GRAVITY } from "./car.ts";

/** What happened during one tick, as the car's systems see it. */
export interface TickLoad {
  /** Road speed, m/s. */
  readonly speed: number;
  /** Longitudinal acceleration, m/s^2 (negative when slowing). */
  readonly accel: number;
  /** Lateral acceleration, m/s^2, positive towards the left. */
  readonly lateral: number;
  /** Throttle, 0..1. */
  readonly throttle: number;
  /** Brake, 0..1. */
  readonly brake: number;
  /** Slip of the driven (rear) wheels, as a ratio above 1 (0.02 = 2 %). */
  readonly rearSlip: number;
}

/** Per-tick state of the car's systems. */
export class CarState {
  /** The car being simulated. */
  readonly car: CarSpec;
  /** Current forward gear, 1-based. */
  gear: number;
  /** Ticks since the last gear change. */
  sinceShift = 1000;
  /** Fuel left, litres. */
  fuel: number;
  /** Manifold pressure as the packet carries it (1 = atmospheric). */
  boost = 1;
  /** Tyre surface temperatures FL FR RL RR, °C. */
  readonly tyres: [number, number, number, number];
  /** Water temperature, °C. */
  water: number;
  /** Oil temperature, °C. */
  oil: number;
  /** Engine speed after the latest update, rpm. */
  rpm = 0;
  /** True when the latest update hit the rev limiter. */
  limiting = false;

  /** A car rolling at `speed` in the gear a driver would pick, with the given fuel and tyres. */
  constructor(car: CarSpec, speed: number, fuel: number, tyreTemp: number) {
    this.car = car;
    this.fuel = fuel;
    this.tyres = [tyreTemp, tyreTemp, tyreTemp + 2, tyreTemp + 2];
    this.water = 78;
    this.oil = 88;
    let gear = 1;
    while (gear < car.gearRatios.length && engineRpm(car, gear, speed) > 6500) gear++;
    this.gear = gear;
    this.rpm = this.#rpmAt(speed, 0);
  }

  #rpmAt(speed: number, slip: number): number {
    return engineRpm(this.car, this.gear, speed * (1 + slip));
  }

  /** Advances every system by one tick of `dt` seconds under `load`. */
  update(load: TickLoad, dt: number): void {
    const car = this.car;
    const top = car.gearRatios.length;
    this.sinceShift++;
    if (this.sinceShift > 8) {
      const now = engineRpm(car, this.gear, load.speed);
      const higher = this.gear < top ? engineRpm(car, this.gear + 1, load.speed) : 0;
      // Flat out the driver shifts near the limiter; cruising he short-shifts.
      const cruising = load.throttle < 0.6 && load.brake === 0 && higher > 4300;
      if (this.gear < top && load.brake === 0 && (now >= car.upshiftRpm || cruising)) {
        this.gear++;
        this.sinceShift = 0;
      } else if (this.gear > 1) {
        const lower = engineRpm(car, this.gear - 1, load.speed);
        const lugging = now < 3800;
        if ((load.brake > 0 && lower <= car.downshiftRpm) || (lugging && lower < car.upshiftRpm)) {
          this.gear--;
          this.sinceShift = 0;
        }
      }
    }
    const raw = this.#rpmAt(load.speed, load.rearSlip);
    this.limiting = raw >= car.limiterRpm;
    this.rpm = Math.min(car.limiterRpm, Math.max(car.idleRpm, raw));

    this.fuel = Math.max(0, this.fuel - (0.0015 + car.fuelPerSecond * load.throttle) * dt);

    const spool = Math.min(1, this.rpm / car.limiterRpm);
    const target = load.throttle < 0.05 ? 0.15 : 1 + car.maxBoost * load.throttle * spool;
    this.boost += (target - this.boost) * Math.min(1, dt / 0.25);

    // Outer tyres carry more load in a bend, fronts under braking, rears under power.
    const latG = load.lateral / GRAVITY;
    const longG = load.accel / GRAVITY;
    const work = Math.abs(load.lateral) + 0.6 * Math.abs(load.accel);
    for (let w = 0; w < 4; w++) {
      const left = w === 0 || w === 2;
      const front = w < 2;
      const side = left ? -latG : latG;
      const pitch = front ? -longG : longG;
      const share = Math.max(0.2, 1 + 0.45 * side + 0.25 * pitch);
      const heat = 0.035 * load.speed + 0.2 * work * share +
        (front ? 0 : 60 * Math.max(0, load.rearSlip - 0.02));
      const cool = 0.07 * (this.tyres[w] - 25);
      this.tyres[w] += (heat - cool) * dt;
    }
    this.water += (0.02 * (92 - this.water) + 0.004 * load.throttle) * dt;
    this.oil += (0.012 * (108 - this.oil) + 0.006 * load.throttle) * dt;
  }
}
