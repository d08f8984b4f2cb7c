export * from './types.js';
export * from './permissions.js';
export * from './load.js';
