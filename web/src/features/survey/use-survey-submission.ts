import { useState } from 'react';
import type { SurveySubmission, SurveySubmittedAnswer } from '@warmline/contracts/surveys';
import { toast } from '../../components/toast-store';
import { surveyConflictOf, useSubmitSurvey, type SurveyEndpoint } from './api';

export type SurveyFieldError = { field: 'username' | 'email'; message: string };

/**
 * Submitting a survey, the same in every funnel (spec §8): 'Success!' and the funnel's next
 * step, or 'Error'. A 409 says which account field is taken, so the wizard can show it there.
 */
export function useSurveySubmission(
  endpoint: SurveyEndpoint,
  salesperson: string,
  onSubmitted: (answers: SurveySubmission, result: SurveySubmittedAnswer) => void,
) {
  const [fieldError, setFieldError] = useState<SurveyFieldError | null>(null);
  const mutation = useSubmitSurvey(endpoint, salesperson, {
    onSuccess: (result, answers) => {
      toast({ title: 'Success!', description: 'Your information has been submitted successfully.', variant: 'success' });
      onSubmitted(answers, result);
    },
    onError: (error) => {
      const conflict = surveyConflictOf(error);
      if (conflict) {
        setFieldError({ field: conflict.field, message: conflict.error });
        toast({
          title: 'Error',
          description: `${conflict.error}. Please choose another ${conflict.field === 'email' ? 'email address' : 'username'}.`,
          variant: 'destructive',
        });
        return;
      }
      toast({ title: 'Error', description: 'Failed to submit survey. Please try again.', variant: 'destructive' });
    },
  });
  return { submit: mutation.mutate, submitting: mutation.isPending, fieldError };
}
