// Browser-safe entry: types and pure helpers, no file-system loader.
export * from './types.js';
export * from './permissions.js';
