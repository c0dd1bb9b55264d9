/** A spinner with a label for screen readers (the label is visible when `showLabel`). */
export function Spinner({ label = 'Loading…', showLabel = false }: { label?: string; showLabel?: boolean }) {
  return (
    <div className="spinner-block" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className={showLabel ? 'spinner-block__label' : 'visually-hidden'}>{label}</span>
    </div>
  );
}

/** The whole-screen wait shown while a lazy route or the session check loads. */
export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} />
    </div>
  );
}
