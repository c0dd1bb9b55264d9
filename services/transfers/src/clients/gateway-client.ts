import { z } from 'zod';
import { SERVICE_CALL_HEADER, signServiceCall, type ServiceSigner } from '@warmline/platform/http/identity';

/**
 * The gateway, as the transfers service asks it about an agent: the gateway owns users and
 * their survey answers; the transfers service keeps only the name it shows the vendor.
 */
export interface GatewayClient {
  /** `GET {GATEWAY_INTERNAL_URL}/internal/users/:id` with this service's own credential (docs/adr/0042); null when the account is gone. */
  agentProfile(userId: string, correlationId: string): Promise<AgentProfile | null>;
}

export interface AgentProfile {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  /** 2-letter codes of the working states of the agent's latest survey. */
  workingStates: string[];
  /** The latest survey's time zone answer (PST, MST, CST, EST), when it had one. */
  surveyTimeZone: 'PST' | 'MST' | 'CST' | 'EST' | null;
  /** The latest survey's calls (or transfers) per day, when it had one. */
  callsPerDay: number | null;
}

const agentProfileAnswer = z.object({
  email: z.string().min(1),
  firstName: z.string(),
  lastName: z.string().optional(),
  phone: z.string().optional(),
  workingStates: z.array(z.string().regex(/^[A-Z]{2}$/)).max(100).optional(),
  surveyTimeZone: z.enum(['PST', 'MST', 'CST', 'EST']).nullable().optional(),
  callsPerDay: z.number().int().positive().nullable().optional(),
});

export function httpGatewayClient(options: { baseUrl: string; signer: ServiceSigner; timeoutMs?: number }): GatewayClient {
  return {
    async agentProfile(userId, correlationId) {
      const url = new URL(`/internal/users/${encodeURIComponent(userId)}`, options.baseUrl);
      const response = await fetch(url, {
        headers: { accept: 'application/json', [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'gateway'), 'x-request-id': correlationId },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      const text = await response.text();
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`the gateway answered ${response.status} for user ${userId}: ${text.slice(0, 500)}`);
      const answer = agentProfileAnswer.safeParse(JSON.parse(text));
      if (!answer.success) throw new Error(`the gateway's answer for user ${userId} is not a user profile: ${answer.error.message}`);
      const a = answer.data;
      return {
        email: a.email,
        firstName: a.firstName,
        lastName: a.lastName ?? '',
        phone: a.phone ?? '',
        workingStates: a.workingStates ?? [],
        surveyTimeZone: a.surveyTimeZone ?? null,
        callsPerDay: a.callsPerDay ?? null,
      };
    },
  };
}
