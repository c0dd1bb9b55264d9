import { toast } from '../../components/toast-store';
import type { PaymentFailure } from '../payments/payment-form';

/** Spec §8, embedded payment: 'Payment Failed' with the provider's message or 'Failed to process payment'. */
export function showTransferPaymentFailure(failure: PaymentFailure): void {
  toast({
    title: 'Payment Failed',
    description: failure.kind === 'declined' && failure.message ? failure.message : 'Failed to process payment',
    variant: 'destructive',
  });
}

export function showTransferPaymentSuccess(): void {
  toast({ title: 'Payment Successful', description: "Thank you for your purchase! We'll be in touch soon.", variant: 'success' });
}
