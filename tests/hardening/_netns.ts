/**
 * A network namespace of the test's own, joined to this one by a veth pair
 * on a private /30: the only interfaces and addresses a cross-host test
 * uses. Needs Linux, root and iproute2; {@linkcode VethNamespace.unavailable}
 * says why not elsewhere.
 *
 * @module
 */

/** Runs `cmd` to the end; never throws. */
export function run(cmd: string, args: string[]): { ok: boolean; out: string } {
  try {
    const r = new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).outputSync();
    const dec = new TextDecoder();
    return { ok: r.success, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
  } catch (err) {
    return { ok: false, out: String(err) };
  }
}

/** One namespace `ns` and its veth pair: `hostIp` on this side, `peerIp` inside. */
export class VethNamespace {
  readonly ns: string;
  readonly hostIf: string;
  readonly peerIf: string;

  /** Names derived from `tag` (short: interface names are at most 15 bytes). */
  constructor(tag: string, readonly hostIp: string, readonly peerIp: string) {
    this.ns = `${tag}ns`;
    this.hostIf = `${tag}h`;
    this.peerIf = `${tag}p`;
  }

  /** Why the namespace cannot be made here, or null when it can. */
  unavailable(): string | null {
    if (Deno.build.os !== "linux") return "not Linux";
    if (Deno.uid() !== 0) return "not root";
    if (!run("ip", ["-V"]).ok) return "iproute2 (ip) is not installed";
    const probe = run("ip", ["netns", "add", this.ns]);
    if (!probe.ok) return `ip netns add failed: ${probe.out.trim()}`;
    run("ip", ["netns", "del", this.ns]);
    return null;
  }

  /** Makes the namespace and the pair, both ends up; throws naming the step that failed. */
  setUp(): void {
    const { ns, hostIf, peerIf } = this;
    const steps: string[][] = [
      ["netns", "add", ns],
      ["link", "add", hostIf, "type", "veth", "peer", "name", peerIf],
      ["link", "set", peerIf, "netns", ns],
      ["addr", "add", `${this.hostIp}/30`, "dev", hostIf],
      ["link", "set", hostIf, "up"],
      ["netns", "exec", ns, "ip", "addr", "add", `${this.peerIp}/30`, "dev", peerIf],
      ["netns", "exec", ns, "ip", "link", "set", peerIf, "up"],
      ["netns", "exec", ns, "ip", "link", "set", "lo", "up"],
    ];
    for (const step of steps) {
      const r = run("ip", step);
      if (!r.ok) throw new Error(`ip ${step.join(" ")}: ${r.out}`);
    }
  }

  /** Removes the namespace and the pair, whatever of them exists. */
  tearDown(): void {
    run("ip", ["netns", "del", this.ns]);
    run("ip", ["link", "del", this.hostIf]);
  }
}
