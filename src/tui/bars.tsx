/**
 * Bars of the live view: the rev lights and the pedal bars.
 *
 * @module
 */
import { Text } from "ink";
import { right } from "./format.ts";

/** Lit character of the rev lights. */
export const LIGHT_ON = "■";
/** Unlit character of the rev lights. */
export const LIGHT_OFF = "□";
/** Filled character of a pedal bar. */
export const BAR_ON = "█";
/** Empty character of a pedal bar. */
export const BAR_OFF = "░";

/**
 * How many of `lights` rev lights are lit at `rpm`: none at or below the
 * car's first alert rpm, all at or above its last, proportionally between.
 * None when the car reports no alert range.
 */
export function litLights(rpm: number, alertMin: number, alertMax: number, lights: number): number {
  if (!(alertMax > alertMin) || lights <= 0) return 0;
  const fraction = (rpm - alertMin) / (alertMax - alertMin);
  return Math.min(lights, Math.max(0, Math.round(fraction * lights)));
}

/** Props of {@linkcode RevLights}. */
export interface RevLightsProps {
  rpm: number;
  alertMin: number;
  alertMax: number;
  /** Number of lights. */
  lights: number;
}

/** The rev-light strip: green, then yellow, then red; all red at the shift point. */
export function RevLights({ rpm, alertMin, alertMax, lights }: RevLightsProps) {
  const lit = litLights(rpm, alertMin, alertMax, lights);
  const shift = lit === lights && lit > 0;
  const cells = Array.from({ length: lights }, (_, i) => {
    const on = i < lit;
    const color = shift ? "red" : i < lights * 0.6 ? "green" : i < lights * 0.85 ? "yellow" : "red";
    return (
      <Text key={i} color={on ? color : "gray"}>
        {on ? LIGHT_ON : LIGHT_OFF}
      </Text>
    );
  });
  return <Text>{cells}</Text>;
}

/** Props of {@linkcode PedalBar}. */
export interface PedalBarProps {
  /** Label before the bar, padded by the caller. */
  label: string;
  /** Pedal position 0..100. */
  pct: number;
  /** Width of the bar itself, in cells. */
  width: number;
  color: string;
}

/** A labelled horizontal bar with the percentage after it. */
export function PedalBar({ label, pct, width, color }: PedalBarProps) {
  const filled = Math.min(width, Math.max(0, Math.round(pct / 100 * width)));
  return (
    <Text>
      {label}
      <Text color={color}>{BAR_ON.repeat(filled)}</Text>
      <Text color="gray">{BAR_OFF.repeat(width - filled)}</Text>
      {right(`${pct}%`, 5)}
    </Text>
  );
}

/** Props of {@linkcode ProgressBar}. */
export interface ProgressBarProps {
  /** Done, 0..1. */
  fraction: number;
  /** Width of the bar itself, in cells. */
  width: number;
}

/** `[████░░░░]  42%`: a bar of `width` cells and the whole percentage. */
export function ProgressBar({ fraction, width }: ProgressBarProps) {
  const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const filled = Math.round(f * width);
  return (
    <Text>
      {"["}
      <Text color="green">{BAR_ON.repeat(filled)}</Text>
      <Text color="gray">{BAR_OFF.repeat(width - filled)}</Text>
      {"]" + right(`${Math.floor(f * 100)}%`, 5)}
    </Text>
  );
}
