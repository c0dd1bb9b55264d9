import type { Handler } from '@warmline/platform/bus/index';
import { claimEmail, recordDelivery } from '../db/email-log';
import type { Mailer } from '../domain/mailer';

/**
 * email.send: claim the command id in email_log, then send. Both happen in the consumer's
 * transaction, so a redelivered command finds the row and sends nothing, and a failed send
 * rolls the claim back and throws, letting the consumer retry and then dead-letter it.
 */
export function sendEmailHandler(mailer: Mailer): Handler<'email.send'> {
  return async (data, { envelope, db, log }) => {
    const commandId = envelope.id;
    const claimed = await claimEmail(db, {
      commandId,
      recipient: data.to,
      subject: data.subject,
      template: data.template,
      transport: mailer.transport,
    });
    if (!claimed) {
      log.info({ commandId }, 'email already sent for this command; skipping');
      return;
    }
    const delivery = await mailer.send({
      id: commandId,
      to: data.to,
      subject: data.subject,
      text: data.text,
      ...(data.html === undefined ? {} : { html: data.html }),
      ...(data.brand === undefined ? {} : { brand: data.brand }),
    });
    await recordDelivery(db, commandId, delivery.location);
    log.info(
      { commandId, template: data.template, transport: delivery.transport, location: delivery.location },
      delivery.transport === 'file' ? `email written to ${delivery.location}` : 'email sent',
    );
  };
}
