/**
 * @deprecated transitional: import `createApp` and `App` from
 * ./create_app.ts and `APP_VERSION` from ./version.ts. Kept only while
 * callers move over.
 *
 * @module
 */
export { type App, type AppOptions, createApp } from "./create_app.ts";
export { APP_VERSION } from "./version.ts";
