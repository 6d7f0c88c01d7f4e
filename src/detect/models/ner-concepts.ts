// Word classes shared across languages, for the named-entity model's context features (ner-features.ts):
// the word before a token may be an article, a preposition of place, a title, or a verb of speech, in
// any of the languages the corpora hold and their neighbours. A class is a feature of its own, so what the
// model learns from "in" before a place in English carries to "u", "v", "в" or "i" before one in a
// language it saw little or none of. Closed-class words only, from grammars and dictionaries, none from
// the corpora's cases.

const CLASSES: Record<number, string> = {
  // articles and determiners
  1:
    'the a an this that these those der die das den dem des ein eine einen einem einer eines dieser diese dieses ' +
    'le la les un une du des ce cette ces el los las una unos unas lo il gli uno o os as um uma uns umas este esta ' +
    'een het de dit deze ett det dessa denna detta ten ta to tento táto toto этот эта это эти',
  // prepositions of place and direction
  2:
    'in at from to into near across towards toward im nach aus bei zum zur vom ins ab à au aux dans en vers chez ' +
    'em no na nos nas para desde hacia en del al nel nella a dal dalla da i på från till fra til mod ved hos ' +
    'u iz kod prema v vo z zo k ku pri в во из на к ко у под над около',
  // titles and roles before a name
  3:
    'mr mrs ms miss dr prof sir madam lady lord president minister senator general captain king queen pope saint ' +
    'herr frau präsident kanzler kanzlerin minister monsieur madame mme mlle président señor señora don doña sr sra ' +
    'senhor senhora presidente ministro ministra papa rei rainha kung drottning statsminister hr fru ' +
    'gospodin gospođa predsjednik premijer pán pani pan prezident господин госпожа президент премьер министр',
  // verbs of speech and saying (the word after a person)
  4:
    'said says told asked added wrote sagte sagt erklärte schrieb meinte dit déclare a dijo afirmó disse afirmou ' +
    'declarou sade sa sagde skrev rekao rekla izjavio izjavila kazao povedal povedala uviedol сказал сказала заявил заявила',
};

const CLASS_OF = new Map<string, number>();
for (const [k, words] of Object.entries(CLASSES))
  for (const w of words.split(/\s+/)) if (w && !CLASS_OF.has(w)) CLASS_OF.set(w, Number(k));

/** The class of a lower-cased word (0: none). */
export function conceptOf(lower: string): number {
  return CLASS_OF.get(lower) ?? 0;
}
