import { toast } from '../../components/toast-store';

// A failed payment has no toast: the payment form says why beside its button (issue 17).
export function showTransferPaymentSuccess(): void {
  toast({ title: 'Payment Successful', description: "Thank you for your purchase! We'll be in touch soon.", variant: 'success' });
}
