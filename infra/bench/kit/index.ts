export * from './autocannon.js';
export * from './database.js';
export * from './processes.js';
export * from './report.js';
export * from './stats.js';
export * from './gateway.js';
