import { useRef, useState } from 'preact/hooks';
import { ApiProblem, api, type Recipe } from '../../api';
import { sentenceFor, t } from '../../i18n';
import { useAction } from '../../ui';
import { hiddenByUndo, withUndo } from '../../ui/undo';
import { PHOTO_TYPES, photoRefusal, photoSrc, uploadPhoto } from './photo-upload';

/** What the undo bar hides while a removed picture waits to be sent. */
const photoKey = (recipeId: string) => `recipe-photo:${recipeId}`;

/** Why a photo was not taken, as the person reads it: a photo too large says how large it may be. */
const photoSentence = (error: unknown): string =>
  error instanceof ApiProblem && error.code === 'payload_too_large' ? t.value.photoTooLarge : sentenceFor(error);

/**
 * The recipe's picture across the top and, for an adult, the household's own photo: "Legg til bilde" where there is
 * none, "Bytt bilde" and "Fjern bilde" under one. The file chooser offers JPEG, PNG and WebP; a phone offers its
 * camera there beside its photos (no `capture`: that would open the camera alone, and a photo taken earlier could not
 * be chosen). The upload shows how far it has come; the new picture shows at once (its address carries its tag).
 * Removing waits for "Angre" as every removal does.
 */
export function RecipePhoto({ householdId, recipe, adult, onChange }: { householdId: string; recipe: Recipe; adult: boolean; onChange: (r: Recipe) => void }) {
  const m = t.value;
  const input = useRef<HTMLInputElement>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [said, setSaid] = useState('');
  const act = useAction();
  const image = hiddenByUndo.value.has(photoKey(recipe.id)) ? null : recipe.image;

  const upload = (file: File) =>
    act.run(async () => {
      setSaid('');
      const refused = photoRefusal(file);
      if (refused) throw refused;
      setSent(0);
      try {
        const next = await uploadPhoto(householdId, recipe.id, file, setSent);
        onChange(next);
        setSaid(image ? m.photoChanged : m.photoAdded);
      } finally {
        setSent(null);
      }
    });
  const chosen = (e: Event) => {
    const field = e.currentTarget as HTMLInputElement;
    const file = field.files?.[0];
    // Emptied, so that choosing the same file again (after a refusal) is a change too.
    field.value = '';
    if (file) void upload(file);
  };
  const remove = () => {
    setSaid('');
    withUndo(m.photoRemoved, [photoKey(recipe.id)], async () => {
      await api.DELETE('/api/v1/households/{householdId}/recipes/{recipeId}/image', { params: { path: { householdId, recipeId: recipe.id } } });
      onChange({ ...recipe, image: null, imageUrl: null });
    });
  };

  return (
    <>
      {image && <img class="recipe-hero" src={photoSrc(image)} alt="" width={640} height={360} />}
      {adult && (
        <div class={image ? 'photo-actions' : 'photo-actions photo-none'}>
          <input ref={input} type="file" accept={PHOTO_TYPES.join(',')} hidden onChange={chosen} aria-label={image ? m.changePhoto : m.addPhoto} />
          <button type="button" class="secondary" disabled={act.busy} onClick={() => input.current?.click()}>
            {image ? m.changePhoto : m.addPhoto}
          </button>
          {image && (
            <button type="button" class="secondary" disabled={act.busy} onClick={remove}>
              {m.removePhoto}
            </button>
          )}
          {sent !== null && (
            <label class="photo-progress">
              {sent < 1 ? m.photoSending(Math.round(sent * 100)) : m.photoPreparing}
              <progress max={100} value={Math.round(sent * 100)} />
            </label>
          )}
          <p role="status" class="photo-said">
            {said}
          </p>
          {act.error !== null && (
            <p class="problem" role="alert">
              {photoSentence(act.error)}
            </p>
          )}
        </div>
      )}
    </>
  );
}
