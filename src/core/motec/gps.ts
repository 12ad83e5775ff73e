/**
 * GPS coordinates made from GT7 world positions, so that MoTeC i2 can draw a
 * track map. GT7 has no geography: every circuit is placed around one fixed,
 * documented origin and projected with a local flat-earth (equirectangular)
 * approximation, which is exact enough over a circuit's few kilometres and
 * exactly invertible, so the driven line comes back from the file.
 *
 * World x runs east and world z runs south (north is -z), the orientation
 * the project's maps use, so a map drawn by i2 matches ours.
 *
 * @module
 */

/** Latitude of the origin (world x = 0, z = 0), degrees north. */
export const GPS_ORIGIN_LAT = 45;
/** Longitude of the origin, degrees east. */
export const GPS_ORIGIN_LON = 7.5;

const RAD = Math.PI / 180;
const LAT0 = GPS_ORIGIN_LAT * RAD;

/**
 * Metres per degree of latitude at the origin (the WGS 84 ellipsoid's series
 * for the length of a degree).
 */
export const METRES_PER_DEG_LAT = 111132.954 - 559.822 * Math.cos(2 * LAT0) +
  1.175 * Math.cos(4 * LAT0) - 0.0023 * Math.cos(6 * LAT0);

/** Metres per degree of longitude at the origin's latitude (same series). */
export const METRES_PER_DEG_LON = 111412.84 * Math.cos(LAT0) - 93.5 * Math.cos(3 * LAT0) +
  0.118 * Math.cos(5 * LAT0);

/** Latitude, degrees, of world position z (metres; +z is south). */
export function latitudeOf(z: number): number {
  return GPS_ORIGIN_LAT - z / METRES_PER_DEG_LAT;
}

/** Longitude, degrees, of world position x (metres; +x is east). */
export function longitudeOf(x: number): number {
  return GPS_ORIGIN_LON + x / METRES_PER_DEG_LON;
}

/** World position z (metres) of `latitude`: the inverse of {@linkcode latitudeOf}. */
export function zOfLatitude(latitude: number): number {
  return (GPS_ORIGIN_LAT - latitude) * METRES_PER_DEG_LAT;
}

/** World position x (metres) of `longitude`: the inverse of {@linkcode longitudeOf}. */
export function xOfLongitude(longitude: number): number {
  return (longitude - GPS_ORIGIN_LON) * METRES_PER_DEG_LON;
}
