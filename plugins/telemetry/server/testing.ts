/**
 * For tests, seeds and benches of other workspaces (`@rti/plugin-telemetry/testing`): the
 * whole runtime of a server (push, flush, engine), more than the `telemetry` service offers.
 * Plugins themselves use `ctx.use('telemetry')`.
 */
export { telemetryRuntime, type TelemetryRuntime } from './runtime';
