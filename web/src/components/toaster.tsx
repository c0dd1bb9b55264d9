import * as Toast from '@radix-ui/react-toast';
import { dismissToast, useToasts } from './toast-store';

/** Spec §7: 5000 ms, swipe right past 50 px to dismiss, F8 moves focus to the toasts. */
export const TOAST_DURATION_MS = 5000;

export function Toaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map((t) => (
        <Toast.Root
          key={t.id}
          className={`toast toast--${t.variant}`}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
        >
          <div className="toast__text">
            <Toast.Title className="toast__title">{t.title}</Toast.Title>
            {t.description ? <Toast.Description className="toast__description">{t.description}</Toast.Description> : null}
          </div>
          <Toast.Close className="toast__close" aria-label="Close">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" hotkey={['F8']} />
    </Toast.Provider>
  );
}
