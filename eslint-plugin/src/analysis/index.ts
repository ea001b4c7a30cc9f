export * from './ast';
export * from './asyncContext';
export * from './callGraph';
export * from './catalog';
export * from './construction';
export * from './imports';
export * from './locks';
export * from './promises';
