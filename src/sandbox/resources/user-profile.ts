// The profile attributes `POST /users` and `PUT /users/:id` take (gitlab-org/gitlab lib/api/users.rb
// `optional_attributes`) and the fields the admin entity shows of them (lib/api/entities/user_public.rb,
// user_with_admin.rb): `identities` from `provider` and `extern_uid` (all or none of them), the limits
// and flags, and the public profile texts.
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { boolParam, intParam, strParam } from '../server/params.js';
import type { UserRec } from '../store/records.js';
import { iso } from '../util/time.js';

/** Public profile texts (the User entity) and their value for a user who never set them. */
export const PUBLIC_TEXTS: Record<string, string | null> = {
  bio: '',
  location: '',
  public_email: null,
  linkedin: '',
  twitter: '',
  discord: '',
  website_url: '',
  organization: '',
  job_title: '',
  pronouns: null,
};

const PRIVATE_TEXTS = ['note', 'commit_email'] as const;
const INTS: Record<string, number> = { projects_limit: 100_000, theme_id: 1, color_scheme_id: 1 };
const FLAGS: Record<string, boolean> = { can_create_group: true, private_profile: false };

/** Reads and applies the profile attributes of a create or update; checks them all before changing anything. */
export function applyProfile(ctx: Ctx): (u: UserRec) => void {
  const provider = strParam(ctx, 'provider');
  const externUid = strParam(ctx, 'extern_uid');
  if ((provider === undefined) !== (externUid === undefined)) {
    throw new ApiError(400, { error: 'extern_uid, provider provide all or none of parameters' });
  }
  const values: Record<string, unknown> = {};
  for (const k of [...Object.keys(PUBLIC_TEXTS), ...PRIVATE_TEXTS]) {
    const v = strParam(ctx, k);
    if (v !== undefined) values[k] = v;
  }
  for (const k of Object.keys(INTS)) {
    const v = intParam(ctx, k);
    if (v !== undefined) values[k] = v;
  }
  for (const k of Object.keys(FLAGS)) {
    const v = boolParam(ctx, k);
    if (v !== undefined) values[k] = v;
  }
  // `avatar` is a file (multipart); anything else is Grape's type error.
  const avatar = ctx.files.avatar;
  if (avatar) values.avatar = avatar.filename;
  else if (ctx.params.avatar !== undefined) throw E.invalid('avatar');
  return (u) => {
    u.profile = { ...u.profile, ...values };
    if (provider !== undefined && externUid !== undefined) {
      const identities = (u.identities ?? []).filter((i) => i.provider !== provider);
      u.identities = [...identities, { provider, externUid }];
    }
  };
}

/** Where the service serves an uploaded avatar, or null without one. */
export function userAvatarUrl(base: string, u: UserRec): string | null {
  const file = u.profile?.avatar;
  return typeof file === 'string' ? `${base}/uploads/-/system/user/avatar/${u.id}/${encodeURIComponent(file)}` : null;
}

export function publicProfile(u: UserRec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(PUBLIC_TEXTS)) out[k] = u.profile?.[k] ?? v;
  return out;
}

/** What the user themself and administrators see besides the public fields (UserPublic). */
export function privateProfile(u: UserRec): Record<string, unknown> {
  const p = u.profile ?? {};
  const limit = (p.projects_limit as number | undefined) ?? INTS.projects_limit!;
  return {
    last_activity_on: u.lastActivityAt === undefined ? null : iso(u.lastActivityAt).slice(0, 10),
    current_sign_in_at: iso(u.updatedAt),
    theme_id: p.theme_id ?? INTS.theme_id,
    color_scheme_id: p.color_scheme_id ?? INTS.color_scheme_id,
    projects_limit: limit,
    identities: (u.identities ?? []).map((i) => ({ provider: i.provider, extern_uid: i.externUid, saml_provider_id: null })),
    can_create_group: p.can_create_group ?? FLAGS.can_create_group,
    can_create_project: limit > 0,
    private_profile: p.private_profile ?? FLAGS.private_profile,
    commit_email: p.commit_email ?? u.email,
    preferred_language: 'en',
  };
}

/** Only administrators see these (UserWithAdmin). */
export function adminProfile(u: UserRec): Record<string, unknown> {
  return { note: u.profile?.note ?? null, created_by: null, email_reset_offered_at: null };
}
