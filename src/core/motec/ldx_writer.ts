/**
 * The `.ldx` file MoTeC i2 reads beside a `.ld` log: XML holding the lap
 * markers (beacons) and the log's details. i2 cuts laps at the beacons, so
 * they are placed at the exact samples where our laps end, never summed from
 * lap times (which drift from the data by rounding).
 *
 * @module
 */
import { lapTimeText } from "../laps/csv.ts";
import { beaconTimesUs, fastestLapIndex, type MotecLog } from "./log.ts";

/**
 * The `.ldx` text of `log`: an `LDXFile` with one `MarkerGroup` "Beacons"
 * holding a `BCN` marker at the end of every lap ({@linkcode beaconTimesUs},
 * microseconds from the first sample), and `Details` with Total Laps (i2
 * counts the laps between beacons plus the one after the last), Fastest Time
 * (`M:SS.mmm`) and Fastest Lap (i2's number: our first lap is i2's lap 1).
 * Fastest Time and Fastest Lap are left out when no lap is complete. Lines
 * end in LF; attribute values are XML-escaped.
 */
export function encodeLdx(log: MotecLog): string {
  const times = beaconTimesUs(log.laps);
  const fastest = fastestLapIndex(log.laps);
  const lines = [
    `<?xml version="1.0"?>`,
    `<LDXFile Locale="English_United Kingdom.1252" DefaultLocale="C" Version="1.6">`,
    ` <Layers>`,
    `  <Layer>`,
    `   <MarkerBlock>`,
    `    <MarkerGroup Name="Beacons" Index="${times.length - 1}">`,
    ...times.map((t, i) =>
      `     <Marker Version="100" ClassName="BCN" Name="Manual.${i + 1}" Flags="77" Time="${t}"/>`
    ),
    `    </MarkerGroup>`,
    `   </MarkerBlock>`,
    `   <RangeBlock/>`,
    `  </Layer>`,
    `  <Details>`,
    `   <String Id="Total Laps" Value="${times.length + 1}"/>`,
  ];
  if (fastest !== null) {
    lines.push(
      `   <String Id="Fastest Time" Value="${escapeXml(lapTimeText(log.laps[fastest].time_ms))}"/>`,
      `   <String Id="Fastest Lap" Value="${fastest + 1}"/>`,
    );
  }
  lines.push(`  </Details>`, ` </Layers>`, `</LDXFile>`, ``);
  return lines.join("\n");
}

function escapeXml(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}
