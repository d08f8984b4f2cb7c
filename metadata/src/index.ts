export * from './types';
export * from './permissions';
export * from './patterns';
export * from './labels';
export * from './menu';
export * from './check';
export * from './load';
export * from './overlay';
