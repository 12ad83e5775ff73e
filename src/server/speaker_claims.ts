/**
 * Which device speaks the live page's cues: one at a time. A device claims
 * the voice by opening its live stream with `speak=1`; the newest claim
 * speaks (the driver just switched speech on there, so that is the device
 * they mean), and when its stream ends the newest remaining claim takes over.
 * The claim lives exactly as long as the stream: a phone that slept or lost
 * the network lets go with its connection, with nothing stored and nothing to
 * release by hand. As a claim only rides a read (GET /api/live), a device on
 * the LAN needs no token to speak; it changes nothing the store holds.
 *
 * @module
 */

/** Called with true when a claim starts speaking, false when it stops. */
export type SpeakerNotice = (speaking: boolean) => void;

/** The claims of one HTTP app's live streams, newest last. */
export class SpeakerClaims {
  readonly #claims: { notify: SpeakerNotice }[] = [];

  /**
   * Adds a claim that speaks from now on (the one speaking before is told it
   * stopped). `notify` hears every change of its own state, the first (true)
   * at once. Returns the release, idempotent; releasing the speaker hands
   * the voice to the newest claim left.
   */
  claim(notify: SpeakerNotice): () => void {
    const entry = { notify };
    const before = this.#claims.at(-1);
    this.#claims.push(entry);
    before?.notify(false);
    notify(true);
    return () => {
      const i = this.#claims.indexOf(entry);
      if (i < 0) return;
      const wasSpeaker = i === this.#claims.length - 1;
      this.#claims.splice(i, 1);
      if (wasSpeaker) this.#claims.at(-1)?.notify(true);
    };
  }

  /** How many streams claim the voice now (one of them speaks). */
  get size(): number {
    return this.#claims.length;
  }
}
