import type { Recipe } from '../../api';
import { ApiProblem, refusalOf } from '../../problems';

// A household's own photo of a recipe, sent as its bytes (PUT .../recipes/{recipeId}/image: the service checks,
// turns, shrinks and keeps it). Sent with XMLHttpRequest, which tells how much of the body has gone (a phone's photo
// over a slow line takes a while); fetch cannot. The call is the client's api.PUT('/api/v1/households/{householdId}/recipes/{recipeId}/image')
// in all but the progress: its problem codes have sentences like every other call's (test/web-problem-sentences.test.ts).

/** What the file chooser offers, and all the service takes. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The most bytes the service takes (15 MiB); a larger photo is not sent at all. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;

/** Why a chosen file is not sent (the same refusal the service would give), or null when it may be. */
export function photoRefusal(file: { readonly size: number; readonly type: string }): ApiProblem | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return new ApiProblem(422, 'recipe_photo_not_an_image');
  if (file.size > PHOTO_MAX_BYTES) return new ApiProblem(413, 'payload_too_large');
  return null;
}

/** A picture's address with its tag, so that a new picture under the same address shows at once. */
export const photoSrc = (image: Pick<NonNullable<Recipe['image']>, 'href' | 'etag'>): string => `${image.href}?v=${image.etag.replace(/[^A-Za-z0-9_-]/g, '')}`;

/** Sends the photo; `progress` hears the share of it sent (0..1). The recipe with its new picture, or the ApiProblem. */
export function uploadPhoto(householdId: string, recipeId: string, file: Blob, progress: (sent: number) => void): Promise<Recipe> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/v1/households/${householdId}/recipes/${recipeId}/image`);
    xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) progress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as Recipe);
      else void refusalOf(new Response(xhr.responseText, { status: xhr.status, headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? '' } })).then(reject, reject);
    };
    xhr.onerror = () => reject(new ApiProblem(0, 'network'));
    xhr.send(file);
  });
}
