/**
 * The synthetic car: a GT3-class (GT7 "Gr.3") coupe described by the few
 * figures the driver model and the telemetry need.
 *
 * @module
 */

/** What the driver model and the frame builder know about the car. */
export interface CarSpec {
  /** GT7 car code sent in every frame. */
  readonly carId: number;
  /** Car category sent in format C frames (at most 4 ASCII characters). */
  readonly category: string;
  /** Distance between the axles, metres. */
  readonly wheelbase: number;
  /** Distance between the left and right contact patches, metres. */
  readonly trackWidth: number;
  /** Front tyre radius, metres. */
  readonly frontTyreRadius: number;
  /** Rear (driven) tyre radius, metres. */
  readonly rearTyreRadius: number;
  /** Ratios of the forward gears, first gear first. */
  readonly gearRatios: readonly number[];
  /** Final drive ratio. */
  readonly finalDrive: number;
  /** Engine speed at idle, rpm. */
  readonly idleRpm: number;
  /** Rev limiter, rpm. */
  readonly limiterRpm: number;
  /** The driver shifts up when the engine reaches this speed, rpm. */
  readonly upshiftRpm: number;
  /** The driver shifts down under braking once the lower gear is below this, rpm. */
  readonly downshiftRpm: number;
  /** Shift lights start here, rpm. */
  readonly rpmAlertMin: number;
  /** Engine power over mass, W/kg (so power / speed is an acceleration). */
  readonly powerPerMass: number;
  /** Aerodynamic drag over mass, 1/m (drag deceleration = this * v^2). */
  readonly dragPerMass: number;
  /** Rolling and cornering drag per unit of lateral acceleration. */
  readonly corneringDrag: number;
  /** Best forward acceleration the tyres transmit, m/s^2. */
  readonly tractionAccel: number;
  /** Peak braking deceleration, m/s^2. */
  readonly brakeDecel: number;
  /** Peak lateral acceleration, m/s^2. */
  readonly lateralAccel: number;
  /** Fuel tank, litres. */
  readonly fuelCapacity: number;
  /** Fuel burnt per second at full throttle, litres. */
  readonly fuelPerSecond: number;
  /** Peak boost above atmospheric, bar. */
  readonly maxBoost: number;
  /** Ride height at rest, metres. */
  readonly rideHeight: number;
  /** Suspension reading at rest, metres. */
  readonly suspensionRest: number;
}

const G = 9.80665;

/** The default synthetic car: NSX Gr.3 figures, rounded. */
export const GR3_CAR: CarSpec = {
  carId: 3235,
  category: "Gr.3",
  wheelbase: 2.6,
  trackWidth: 1.64,
  frontTyreRadius: 0.335,
  rearTyreRadius: 0.345,
  gearRatios: [2.85, 2.15, 1.72, 1.43, 1.22, 1.06],
  finalDrive: 3.29,
  idleRpm: 1000,
  limiterRpm: 7800,
  upshiftRpm: 7450,
  downshiftRpm: 6900,
  rpmAlertMin: 6800,
  powerPerMass: 300,
  dragPerMass: 0.00063,
  corneringDrag: 0.1,
  tractionAccel: 0.95 * G,
  brakeDecel: 1.1 * G,
  lateralAccel: 1.3 * G,
  fuelCapacity: 100,
  fuelPerSecond: 0.05,
  maxBoost: 1.3,
  rideHeight: 0.065,
  suspensionRest: 0.3,
};

/** Standard gravity, m/s^2. */
export const GRAVITY = G;

/**
 * Engine speed (rpm) in forward gear `gear` (1-based) at road speed `speed`
 * (m/s) of the driven wheels, without clamping to idle or the limiter.
 */
export function engineRpm(car: CarSpec, gear: number, speed: number): number {
  const ratio = car.gearRatios[gear - 1] * car.finalDrive;
  return speed / car.rearTyreRadius * ratio * 60 / (2 * Math.PI);
}

/** Top speed in the highest gear at the rev limiter, m/s. */
export function gearedTopSpeed(car: CarSpec): number {
  const top = car.gearRatios.length;
  return car.limiterRpm / engineRpm(car, top, 1);
}
