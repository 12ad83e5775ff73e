/**
 * A compile-time check that a zod schema's output and a TypeScript type
 * agree, so a response schema cannot drift from the type the service
 * answers with: `const ok: SameType<z.output<typeof s>, T> = true;` fails
 * to type-check as soon as they differ.
 *
 * @module
 */

/**
 * `true` when `A` and `B` are the same type, `false` otherwise: each is
 * assignable to the other and they name the same keys (which catches an
 * optional field present on one side only).
 */
export type SameType<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true : false
  : false
  : false;
