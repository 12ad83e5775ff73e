/**
 * The live view's link line as parts that give way in order: each part has
 * its full text, maybe a shorter one, whether it may be left out, and a
 * rank (lower gives way first). When the whole line is wider than the
 * terminal, parts are shortened and then left out, lowest rank first (see
 * {@linkcode fitLinkParts}); only if it still does not fit is the end cut
 * with `…`. So a warning (a kernel drop count, a stopped capture) is never
 * the part cut off.
 *
 * To add something to the line (a notice such as `store full`), add a
 * part in {@linkcode linkParts} with a rank above the figures it should
 * outlast.
 *
 * @module
 */
import { fit } from "./format.ts";
import type { LinkState } from "./live_figures.ts";

/** One piece of the link line. */
export interface LinkPart {
  /** The text when there is room. */
  full: string;
  /** A shorter text for a narrow terminal; none when it cannot be shortened. */
  short?: string;
  /** True when the line may leave it out altogether. */
  droppable: boolean;
  /** Lower ranks give way first. */
  rank: number;
}

/** Ranks of the parts: what a narrow terminal keeps longest comes last. */
export const LINK_RANK = {
  format: 10,
  rate: 20,
  console: 30,
  quietKernel: 40,
  relay: 50,
  hub: 55,
  drops: 60,
  state: 70,
  kernel: 80,
  record: 90,
  hubTrouble: 95,
  store: 100,
} as const;

/** The parts of the link line for `link`, in the order they are shown. */
export function linkParts(link: LinkState): LinkPart[] {
  const parts: LinkPart[] = [];
  if (link.store) {
    // The store's trouble comes first and is the last thing a narrow line gives up: laps are at stake.
    const cut = link.store.indexOf(" (");
    parts.push({
      full: link.store,
      short: cut > 0 ? link.store.slice(0, cut) : undefined,
      droppable: false,
      rank: LINK_RANK.store,
    });
  }
  if (link.hub) {
    // A hub in trouble stays on a narrow line (laps pile up); one that is fine may go.
    parts.push({
      full: link.hub.text,
      droppable: !link.hub.trouble,
      rank: link.hub.trouble ? LINK_RANK.hubTrouble : LINK_RANK.hub,
    });
  }
  if (!link.stale && link.state === "none") {
    parts.push({ full: "no telemetry source", droppable: false, rank: LINK_RANK.state });
    return parts;
  }
  const consolePart = (c: string): LinkPart => ({
    full: `console ${c}`,
    short: c,
    droppable: true,
    rank: LINK_RANK.console,
  });
  if (link.stale) {
    const s = link.lastPacketS;
    parts.push({
      full: `link lost: last packet ${s} s ago`,
      short: `lost ${s} s ago`,
      droppable: false,
      rank: LINK_RANK.state,
    });
    if (link.console) parts.push(consolePart(link.console));
  } else if (link.state === "connected") {
    parts.push({ full: "connected", droppable: false, rank: LINK_RANK.state });
    parts.push(consolePart(link.console ?? "(passive)"));
  } else if (link.state === "waiting") {
    parts.push({
      full: `waiting for console ${link.console}`,
      short: `waiting for ${link.console}`,
      droppable: false,
      rank: LINK_RANK.state,
    });
  } else {
    parts.push({
      full: `listening on ${link.listen} (no console set)`,
      short: `listening on ${link.listen}`,
      droppable: false,
      rank: LINK_RANK.state,
    });
  }
  const format = link.format ?? "-";
  parts.push({
    full: `format ${format}`,
    short: `fmt ${format}`,
    droppable: true,
    rank: LINK_RANK.format,
  });
  parts.push({
    full: `${link.pps} pkt/s`,
    short: `${link.pps}/s`,
    droppable: true,
    rank: LINK_RANK.rate,
  });
  parts.push({ full: `drops ${link.drops}`, droppable: false, rank: LINK_RANK.drops });
  if (link.kernelDrops !== null) {
    // A count of 0 says all is well: it may go; any other is a warning that stays.
    const quiet = link.kernelDrops === 0;
    parts.push({
      full: `kernel drops ${link.kernelDrops}`,
      short: `kdrops ${link.kernelDrops}`,
      droppable: quiet,
      rank: quiet ? LINK_RANK.quietKernel : LINK_RANK.kernel,
    });
  }
  if (link.record !== null) {
    parts.push(
      link.record.error === null
        ? {
          full: `rec ${link.record.mb.toFixed(1)} MB`,
          short: `rec ${link.record.mb.toFixed(1)}M`,
          droppable: false,
          rank: LINK_RANK.record,
        }
        : { full: "rec STOPPED", droppable: false, rank: LINK_RANK.record },
    );
  }
  if (link.relayApps != null) {
    const n = link.relayApps;
    parts.push({
      full: `relay ${n} app${n === 1 ? "" : "s"}`,
      short: `relay ${n}`,
      droppable: true,
      rank: LINK_RANK.relay,
    });
  }
  return parts;
}

/** Space between parts. */
const SEP = "  ";

/** How much later than shortening a part of the same rank leaving a part out comes. */
const DROP_AFTER = 50;

/**
 * `parts` in at most `width` characters. Each part can give way twice:
 * shortened (at its rank) and left out (at its rank + {@linkcode DROP_AFTER},
 * when droppable); the steps are taken cheapest first until the line fits,
 * so every figure is abbreviated before any is left out, and the state is
 * abbreviated only once the least figures are gone. What still does not fit
 * is cut with `…`.
 */
export function fitLinkParts(parts: readonly LinkPart[], width: number): string {
  const shown: (string | null)[] = parts.map((p) => p.full);
  const text = () => shown.filter((s) => s !== null).join(SEP);
  const steps: { cost: number; i: number; to: string | null }[] = [];
  parts.forEach((p, i) => {
    if (p.short !== undefined) steps.push({ cost: p.rank, i, to: p.short });
    if (p.droppable) steps.push({ cost: p.rank + DROP_AFTER, i, to: null });
  });
  // A stable sort: on a tie, shortening (pushed first) comes before leaving out.
  steps.sort((a, b) => a.cost - b.cost);
  for (const step of steps) {
    if ([...text()].length <= width) return text();
    shown[step.i] = step.to;
  }
  return fit(text(), width).trimEnd();
}

/** The link line's text for `link` in at most `width` characters (no marker). */
export function linkLine(link: LinkState, width: number): string {
  return fitLinkParts(linkParts(link), width);
}
