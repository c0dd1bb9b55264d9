

export function ProgressBar({ labelledBy, value, max, percent, valueText }: { labelledBy: string; value: number; max: number; percent: number; valueText: string }) {
  return (
    <div
      className="import-bar"
      role="progressbar"
      aria-labelledby={labelledBy}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
    >
      <div className="import-bar__fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
