import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { createCampaignBody, suggestCampaignSlug, type Campaign, type CreateCampaign } from '@warmline/contracts/campaigns';
import { CAMPAIGN_LEAD_TYPES, type SurveyResponseRecord } from '@warmline/contracts/surveys';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/field';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { ApiError, errorMessage } from '../../../lib/api';
import { focusFirstError, validate, type FieldErrors } from '../../../lib/form';
import { campaignCsvUrl, useCampaignResponses, useCampaigns, useCreateCampaign, useSetCampaignActive } from './campaigns-api';
import { COMMON_COLUMNS, LEAD_TYPE_COLUMNS, TAIL_COLUMNS } from '../shared/survey-response-fields';
import './campaigns.css';

/** The chosen campaign's slug, kept in the URL beside the shell's `?tab=`. */
const CHOSEN_PARAM = 'campaign';

/**
 * Test Campaigns (spec §2 Admin, issue 12): create a salesperson's referral page, see every
 * campaign with its response count and an active switch, and read one campaign's responses in
 * sections by lead type, exportable as CSV.
 */
export function CampaignsTab() {
  const [params, setParams] = useSearchParams();
  const chosenSlug = params.get(CHOSEN_PARAM);
  const campaigns = useCampaigns();
  const chosen = campaigns.data?.find((c) => c.slug === chosenSlug) ?? null;

  const choose = (slug: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(CHOSEN_PARAM, slug);
      return next;
    });

  return (
    <div className="campaigns">
      <CreateCampaignForm onCreated={(campaign) => choose(campaign.slug)} />
      <section className="campaigns__list" aria-labelledby="campaigns-list-title">
        <h2 id="campaigns-list-title" className="campaigns__title">
          Campaigns
        </h2>
        {campaigns.isPending ? (
          <Spinner label="Loading campaigns…" showLabel />
        ) : campaigns.isError ? (
          <LoadError what="test campaigns" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
        ) : campaigns.data.length === 0 ? (
          <p className="admin-empty">No campaigns yet. Create the first one above.</p>
        ) : (
          <CampaignList campaigns={campaigns.data} chosenSlug={chosenSlug} onChoose={choose} />
        )}
      </section>
      {chosen ? <CampaignResponses key={chosen.id} campaign={chosen} /> : null}
    </div>
  );
}

type CreateValues = { name: string; slug: string };

function CreateCampaignForm({ onCreated }: { onCreated: (campaign: Campaign) => void }) {
  const [values, setValues] = useState<CreateValues>({ name: '', slug: '' });
  // The slug follows the name until the admin types one of their own.
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<CreateValues>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateCampaign();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setFormError(null);
    const checked = validate<CreateCampaign>(createCampaignBody, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstError(form, checked.errors);
      return;
    }
    setErrors({});
    create.mutate(checked.data, {
      onSuccess: (campaign) => {
        setValues({ name: '', slug: '' });
        setSlugEdited(false);
        toast({ title: 'Campaign created', description: `Its page is live at /${campaign.slug}.`, variant: 'success' });
        onCreated(campaign);
      },
      onError: (error) => {
        const message = errorMessage(error, 'the server did not answer');
        // A taken or reserved slug (409) and a refused format (400) belong under the slug.
        if (error instanceof ApiError && (error.status === 409 || /slug/i.test(message))) {
          setErrors({ slug: message });
          focusFirstError(form, { slug: message });
        } else {
          setFormError(`Failed to create campaign: ${message}`);
        }
      },
    });
  };

  return (
    <section className="card campaigns__create" aria-labelledby="campaign-create-title">
      <h2 id="campaign-create-title" className="campaigns__title">
        New Campaign
      </h2>
      <p className="campaigns__hint">
        A campaign is a salesperson’s referral page: its survey is live at /slug as soon as it is created.
      </p>
      <form className="campaigns__form" onSubmit={submit} noValidate>
        <TextField
          label="Salesperson or campaign name"
          name="name"
          autoComplete="off"
          value={values.name}
          error={errors.name}
          onChange={(e) => {
            const name = e.target.value;
            setValues((v) => ({ name, slug: slugEdited ? v.slug : suggestCampaignSlug(name) }));
          }}
        />
        <TextField
          label="Page address (slug)"
          name="slug"
          autoComplete="off"
          spellCheck={false}
          value={values.slug}
          error={errors.slug}
          hint={values.slug ? `The page will be /${values.slug}` : 'Lower-case letters, digits and hyphens'}
          onChange={(e) => {
            setSlugEdited(true);
            const slug = e.target.value;
            setValues((v) => ({ ...v, slug }));
          }}
        />
        <div className="campaigns__submit">
          <Button type="submit" busy={create.isPending}>
            Create Campaign
          </Button>
        </div>
      </form>
      {formError ? (
        <p className="field__error" role="alert">
          {formError}
        </p>
      ) : null}
    </section>
  );
}

function CampaignList({ campaigns, chosenSlug, onChoose }: { campaigns: Campaign[]; chosenSlug: string | null; onChoose: (slug: string) => void }) {
  const setActive = useSetCampaignActive();
  return (
    <div className="campaigns-table-wrap" role="region" aria-label="Campaigns" tabIndex={0}>
      <table className="campaigns-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Page</th>
            <th scope="col">Responses</th>
            <th scope="col">Active</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {campaigns.map((campaign) => {
            const switching = setActive.isPending && setActive.variables?.id === campaign.id;
            return (
              <tr key={campaign.id} data-campaign={campaign.slug} aria-current={campaign.slug === chosenSlug ? 'true' : undefined}>
                <th scope="row" className="campaigns-table__name">
                  {campaign.name}
                </th>
                <td>
                  <a href={`/${campaign.slug}`} target="_blank" rel="noreferrer">
                    /{campaign.slug}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                </td>
                <td data-testid="campaign-responses">{campaign.responseCount.toLocaleString('en-US')}</td>
                <td>
                  <button
                    type="button"
                    role="switch"
                    className="campaign-switch"
                    aria-checked={campaign.active}
                    aria-label={`${campaign.name} active`}
                    disabled={switching}
                    onClick={() =>
                      setActive.mutate(
                        { id: campaign.id, active: !campaign.active },
                        {
                          onError: (error) =>
                            toast({ title: 'Failed to update campaign', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
                        },
                      )
                    }
                  >
                    <span className="campaign-switch__track" aria-hidden="true">
                      <span className="campaign-switch__thumb" />
                    </span>
                    <span className="campaign-switch__text">{campaign.active ? 'On' : 'Off'}</span>
                  </button>
                </td>
                <td>
                  <Button
                    variant="secondary"
                    className="btn--small"
                    aria-pressed={campaign.slug === chosenSlug}
                    aria-label={`View responses of ${campaign.name}`}
                    onClick={() => onChoose(campaign.slug)}
                  >
                    View responses
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function CampaignResponses({ campaign }: { campaign: Campaign }) {
  const responses = useCampaignResponses(campaign.slug);

  // Spec §8's toast, once per failure; the section says so too, with a Retry.
  const { isError, error, errorUpdatedAt } = responses;
  useEffect(() => {
    if (isError) {
      toast({ title: 'Failed to fetch test campaign responses', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    }
  }, [isError, error, errorUpdatedAt]);

  const sections: Array<{ leadType: string; rows: SurveyResponseRecord[] }> = CAMPAIGN_LEAD_TYPES.map((leadType) => ({
    leadType,
    rows: responses.data?.filter((r) => r.leadType === leadType) ?? [],
  }));
  // A lead type the referral survey no longer asks still shows, never silently dropped.
  const others = responses.data?.filter((r) => !(CAMPAIGN_LEAD_TYPES as readonly string[]).includes(r.leadType)) ?? [];
  if (others.length) sections.push({ leadType: 'Other lead types', rows: others });

  return (
    <section className="card campaigns__responses" aria-labelledby="campaign-responses-title">
      <div className="campaigns__responses-header">
        <h2 id="campaign-responses-title" className="campaigns__title">
          Responses: {campaign.name}
        </h2>
        <a className="btn btn--secondary btn--small" href={campaignCsvUrl(campaign.id)} download>
          Export CSV
        </a>
      </div>
      {responses.isPending ? (
        <Spinner label="Loading responses…" showLabel />
      ) : responses.isError ? (
        <LoadError what="test campaign responses" error={responses.error} onRetry={() => void responses.refetch()} />
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {responses.data.length.toLocaleString('en-US')} {responses.data.length === 1 ? 'response' : 'responses'} through /{campaign.slug}
          </p>
          {sections.map(({ leadType, rows }) => (
            <ResponseSection key={leadType} leadType={leadType} rows={rows} />
          ))}
        </>
      )}
    </section>
  );
}

function ResponseSection({ leadType, rows }: { leadType: string; rows: SurveyResponseRecord[] }) {
  const id = `responses-${leadType.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  const columns = [...COMMON_COLUMNS, ...(LEAD_TYPE_COLUMNS[leadType] ?? []), ...TAIL_COLUMNS];
  return (
    <section className="campaigns__section" aria-labelledby={id}>
      <h3 id={id} className="campaigns__section-title">
        {leadType} <span className="campaigns__section-count">({rows.length})</span>
      </h3>
      {rows.length === 0 ? (
        <p className="admin-empty">No {leadType} responses yet.</p>
      ) : (
        <div className="campaigns-table-wrap" role="region" aria-label={`${leadType} responses`} tabIndex={0}>
          <table className="campaigns-table campaigns-table--responses">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-response-id={r.id}>
                  {columns.map((c) => (
                    <td key={c.label} data-label={c.label} className={c.label === 'ID' ? 'campaigns-table__id' : undefined}>
                      {c.value(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
