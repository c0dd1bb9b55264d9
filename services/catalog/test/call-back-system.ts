import type { Identity } from '@warmline/platform';
import { freePort } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from '../../gateway/test/gateway-fixture';
import { startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * The call-back balance tests' system: a real gateway (agents, their surveys' states) and the
 * catalog with a real orders service, each knowing the other's address before it starts.
 */
export async function startCallBackSystem(): Promise<{ fx: CatalogFixture; gw: GatewayFixture }> {
  const catalogPort = await freePort();
  const gw = await startGatewayFixture({ env: { CATALOG_URL: `http://127.0.0.1:${catalogPort}` } });
  const fx = await startCatalogFixture({ GATEWAY_INTERNAL_URL: gw.internalUrl, CATALOG_PORT: String(catalogPort) }, { ordersEnv: { GATEWAY_URL: gw.internalUrl } });
  return { fx, gw };
}

/** An agent with an account at the gateway whose latest (RingCloud Call-Backs) survey works `workingStates`. */
export async function callBackAgent(gw: GatewayFixture, workingStates: string, firstName = 'Casey'): Promise<{ identity: Identity; userId: string }> {
  const { user } = await gw.createAgent({ firstName });
  await gw.pool.query(
    `INSERT INTO survey_responses (user_id, funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email,
                                   username, lead_type, working_states)
     VALUES ($1, 'ringcloud', 'RingCloud', 'RingCloud', $5, 'Agent', 'Agency', 'Insurance Agent', '5125550100', $2, $3, 'Call-Backs', $4)`,
    [user.id, user.email, user.username, workingStates, firstName],
  );
  return { identity: { userId: user.id, username: user.username, isAdmin: false }, userId: user.id };
}
