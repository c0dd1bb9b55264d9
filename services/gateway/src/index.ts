export { startGateway, GATEWAY_SCHEMA, GATEWAY_MIGRATIONS_DIR, type GatewayOptions, type RunningGateway } from './service';
export { gatewayEnv, type GatewayConfig } from './config';
export { seedDemoAccounts, type DemoAccount } from './seed';
export type { ForwardRoute } from './edge/forwarding';
