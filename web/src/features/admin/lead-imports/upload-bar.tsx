import { useId } from 'react';
import { Button } from '../../../components/button';
import { formatBytes, formatDuration, percentDone, secondsLeft } from './lead-import-progress';
import type { UploadProgress } from './lead-imports-api';
import { ProgressBar } from './progress-bar';

export function UploadBar({ fileName, progress, rate, onStop }: { fileName: string; progress: UploadProgress; rate: number | null; onStop: () => void }) {
  const labelId = useId();
  const percent = percentDone(progress.loaded, progress.total);
  const sent = progress.loaded >= progress.total;
  const left = secondsLeft(progress.loaded, progress.total, rate);
  return (
    <div className="import-progress import-progress--upload">
      <p id={labelId} className="import-progress__label">
        {sent ? `Checking ${fileName}…` : `Uploading ${fileName}`}
      </p>
      <ProgressBar
        labelledBy={labelId}
        value={progress.loaded}
        max={progress.total}
        percent={percent}
        valueText={`${percent}%: ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} sent`}
      />
      <p className="import-progress__line">
        <span>
          {formatBytes(progress.loaded)} of {formatBytes(progress.total)} ({percent}%)
        </span>
        {!sent && rate !== null ? <span>{formatBytes(rate)}/s</span> : null}
        {!sent && left !== null ? <span>{formatDuration(left)} left</span> : null}
      </p>
      {!sent ? (
        <Button variant="secondary" className="btn--small" onClick={onStop}>
          Stop upload
        </Button>
      ) : null}
    </div>
  );
}
