// Browser-safe entry: types and pure helpers, no file-system loader.
export * from './types';
export * from './permissions';
export * from './patterns';
export * from './labels';
export * from './menu';
export * from './check';
export * from './overlay';
export * from './transitions';
export * from './flows';
export * from './enums.generated';
