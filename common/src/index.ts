// The one entry point of @rti/common: pure code only (no runtime imports), safe in the console
// bundle and on the server alike.
export * from './track';
export * from './battery-bands';
