import type { CommandData, CommandType } from '@warmline/contracts';
import { enqueue, subscribe, type Handler, type Subscription } from '@warmline/platform/bus/index';
import { accountSecurityEmail, passwordResetEmail, welcomeEmail } from '../domain/account-emails';
import type { EmailToSend } from '../domain/paid-order-email-parts';
import { receiptEmail, salesNoticeEmail } from '../domain/payment-emails';
import { recruitingRequestEmail } from '../domain/recruiting-emails';
import { surveySalesNoticeEmail } from '../domain/survey-emails';
import { operationsNoticeEmail, transferConfirmationEmail } from '../domain/transfer-order-emails';
import { refundIssuedEmail, transferOrderStatusEmail } from '../domain/order-change-emails';
import { disputeOpenedEmail, leadsReceiptEmail } from '../domain/refund-emails';
import { leadOptOutEmail } from '../domain/lead-opt-out-emails';
import { partnerApplicationNoticeEmail, partnerApplicationReceivedEmail, partnerStatusChangedEmail } from '../domain/partner-emails';
import { callbackAssignedEmail } from '../domain/callback-emails';
import { transferDisputeDecidedEmail } from '../domain/transfer-dispute-emails';

const SOURCE = 'notifications';

/** The team inboxes this worker knows (SALES_TEAM_EMAIL, OPERATIONS_EMAIL, PARTNERS_TEAM_EMAIL). */
export interface TeamInboxes {
  salesTeamEmail: string;
  operationsEmail: string;
  partnersTeamEmail: string;
  /** SUPPORT_EMAIL: where WarmLine's receipts tell buyers to write, as the success pages do (unset: its default). */
  supportEmail?: string;
  /** RINGCLOUD_SUPPORT_EMAIL: RingCloud buyers are told to write here, never to WarmLine's inboxes. */
  ringcloudSupportEmail?: string;
}

/** Where the site is (PUBLIC_URL), for links in e-mails that no command carries. */
export interface SiteLinks {
  publicUrl: string;
}

type EmailRequestType = Exclude<CommandType, 'email.send'>;

/**
 * A typed e-mail command → the e-mails it stands for, rendered here and nowhere else.
 *
 * They are not sent from here: each becomes an email.send command in this service's outbox,
 * written in the consumer's transaction together with processed_events. So a redelivered
 * command adds nothing, and each e-mail then goes through the email.send consumer, which sends
 * every one exactly once (email_log). Sending two e-mails straight from one handler would
 * resend the first whenever the second failed and the command was retried.
 */
function renderInto<T extends EmailRequestType>(render: (request: CommandData<T>) => Array<EmailToSend | undefined>): Handler<T> {
  return async (data, { envelope, db, log }) => {
    const outgoing = render(data).filter((m): m is EmailToSend => m !== undefined);
    for (const email of outgoing) {
      await enqueue(db, { type: 'email.send', data: email, correlationId: envelope.correlationId, source: SOURCE });
    }
    log.info({ request: envelope.type, requestId: envelope.id, emails: outgoing.map((m) => m.template) }, 'e-mails written and queued');
  };
}

/** Every typed e-mail command and what it renders into. */
export function emailRequestSubscriptions(teams: TeamInboxes, site: SiteLinks): Subscription[] {
  return [
    subscribe('email.password_reset', renderInto<'email.password_reset'>((r) => [passwordResetEmail(r)])),
    subscribe('email.welcome', renderInto<'email.welcome'>((r) => [welcomeEmail(r, teams)])),
    subscribe('email.account_security', renderInto<'email.account_security'>((r) => [accountSecurityEmail(r, site, teams)])),
    subscribe('email.survey_sales_notice', renderInto<'email.survey_sales_notice'>((r) => [surveySalesNoticeEmail(r)])),
    subscribe('email.recruiting_request', renderInto<'email.recruiting_request'>((r) => [recruitingRequestEmail(r)])),
    // No billing e-mail, no receipt (nowhere to send it); the sales team is told either way.
    subscribe(
      'email.order_paid',
      renderInto<'email.order_paid'>((order) => [receiptEmail(order, teams), salesNoticeEmail(order, teams.salesTeamEmail)]),
    ),
    subscribe(
      'email.transfer_order_paid',
      renderInto<'email.transfer_order_paid'>((order) => [transferConfirmationEmail(order, teams), operationsNoticeEmail(order, teams.operationsEmail)]),
    ),
    subscribe('email.transfer_order_status', renderInto<'email.transfer_order_status'>((change) => [transferOrderStatusEmail(change)])),
    subscribe('email.refund_issued', renderInto<'email.refund_issued'>((refund) => [refundIssuedEmail(refund)])),
    subscribe('email.leads_receipt', renderInto<'email.leads_receipt'>((receipt) => [leadsReceiptEmail(receipt, teams, site)])),
    // Disputes go to the inbox that hears of every sale (SALES_TEAM_EMAIL).
    subscribe('email.dispute_opened', renderInto<'email.dispute_opened'>((dispute) => [disputeOpenedEmail(dispute, teams.salesTeamEmail)])),
    subscribe('email.lead_opt_out', renderInto<'email.lead_opt_out'>((notice) => [leadOptOutEmail(notice, teams)])),
    // The partner network (issue 14): the applicant's confirmation and the partnerships inbox's notice
    // are two commands; a move back to pending renders no e-mail.
    subscribe(
      'email.partner_application_received',
      renderInto<'email.partner_application_received'>((request) => [partnerApplicationReceivedEmail(request, teams)]),
    ),
    subscribe(
      'email.partner_application_notice',
      renderInto<'email.partner_application_notice'>((notice) => [partnerApplicationNoticeEmail(notice, teams)]),
    ),
    subscribe('email.partner_status_changed', renderInto<'email.partner_status_changed'>((change) => [partnerStatusChangedEmail(change, teams)])),
    // Vendor call-backs (issue 15): the agent who received one, with a link to My Call-backs.
    subscribe('email.callback_assigned', renderInto<'email.callback_assigned'>((notice) => [callbackAssignedEmail(notice, site)])),
    // Live transfers (issue 23): the agent whose dispute was decided, with a link to My Transfers.
    subscribe('email.transfer_dispute_decided', renderInto<'email.transfer_dispute_decided'>((notice) => [transferDisputeDecidedEmail(notice, site)])),
  ];
}
