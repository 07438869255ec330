// The verifier's own small lexicon (written for Evident, no outside list): which words a model
// may use for a word of the passage without changing the claim. Wording is lenient (a paraphrase
// is not a new fact), anchors are strict (values, dates, names, negation and quantifiers are read
// elsewhere and never come from here). Each group joins words that can replace one another in a
// policy sentence; irregular forms are listed because the Porter stemmer does not join them
// ("sent" / "send"). A word may sit in several groups. A group member of several words ("law
// enforcement") is met when all of its words are in the passage. Deliberately absent: words that
// name different things in policies however close ("holiday" / "vacation", "employer" /
// "employee", "suspend" / "disable", "court order" / "search warrant").

import { stem } from '../text/terms';
import { NUMBER_WORDS } from './values';
import { monthAbbreviations } from './anchors';

const SYNONYM_GROUPS = `
get gets got gotten getting receive obtain
earn accrue accumulate build
give gave given provide offer supply furnish grant hand
take took taken
send sent transmit forward deliver
submit submitted file turn
ask asked request
tell told inform notify let advise alert
need needed require required necessary mandatory obligatory compulsory must
allow allowed permit let enable authorize okay
prohibit prohibited forbid forbidden forbade ban banned disallow bar
stop end cease halt terminate discontinue
start begin began begun commence initiate kick
use used utilize utilise
help assist support aid
show shown display
make made create produce generate
change modify alter amend adjust revise edit update
remove removed delete erase eliminate expel expelled
keep kept retain hold held preserve maintain save store
lose lost forfeit forfeited
pay paid payment compensate compensation
reimburse reimbursed reimbursement repay refund
buy bought purchase
sell sold
review check examine inspect assess evaluate look
decide decided determine decision
choose chose chosen select pick opt
contact reach
learn learned learnt discover hear heard find found
think thought believe consider
include included contain cover comprise encompass involve
exclude excluded omit
follow comply obey adhere abide observe
violate violation breach break broke broken infringe contravene
report flag
appeal contest challenge dispute
approve approved approval authorize authorise authorization authorisation endorse permission consent clearance
deny denied reject refuse decline
explain describe description outline
complete completed finish fill
book reserve reservation
cancel revoke withdraw withdrew withdrawn rescind
extend extension prolong lengthen
expire expiration expiry lapse
return bring brought back
depart quit exit resign
disclose disclosure reveal share divulge release
transfer move migrate
disable disabled deactivate
restore reinstate reinstated reactivate enable
charge charged bill invoice
cost costs expense expenditure fee price charge
happen occur take place
respond reply answer
handle manage process deal
verify confirm validate
protect safeguard secure
access view see saw seen
post publish
identify recognize recognise
carry roll
waive forgo forego
attend attendee attendees join participate participant participants
meet met satisfy fulfil fulfill
exceed surpass top
write wrote written draft compose
spend spent
go went gone
come came arrive
know knew known aware
understand understood
try tried attempt
say said state stated
mean meant
run ran
lead led
leave left
hard difficult tough challenging
easy simple straightforward
full fully complete completely entire entirely whole wholly total totally
big large major significant significantly substantial substantially considerable considerably
small little minor
quick quickly fast rapid rapidly prompt promptly swift speedy
soon shortly
late delayed overdue
important key crucial critical essential vital
correct accurate right proper
wrong incorrect inaccurate mistaken erroneous
optional voluntary
current present existing
previous prior earlier former past
new further additional extra another
same identical
different distinct separate
similar comparable alike
main primary principal chief
specific particular
regular normal usual standard typical routine ordinary
often frequently regularly
rare rarely uncommon infrequent
available accessible
eligible qualified entitled
responsible accountable liable
appropriate suitable
legal lawful legitimate
illegal unlawful illicit
temporary interim provisional
official formal
final last
first initial
unused leftover remaining outstanding
year yearly annual annually
quarter quarterly
month monthly
week weekly
day daily
hour hourly
immediately instantly
limit cap ceiling maximum max
minimum min
problem issue concern trouble
mistake error
reason cause ground grounds
goal aim objective purpose
way method means approach manner
step stage phase
part portion section piece component
kind type sort category
number amount quantity count
trip journey travel
absence absent leave
vacation annual leave
law legislation statute
police law enforcement
rule policy guideline regulation
record records document documents documentation paperwork
information info data details
message note communication
employee employees staff worker personnel
manager supervisor
customer client
company business firm
job position role
proof evidence
identity identification id
people person persons individual individuals
side party parties
repo repository
site website
phone telephone
owner holder
family relative relatives kin
dead deceased die died death
forever permanently permanent indefinitely indefinite
`;

/**
 * Words that carry a negation of their own (for the polarity check): "prohibited" says what
 * "not allowed" says, "unable to" what "cannot" says, "forfeited" what "not kept" says.
 */
export const NEGATIVE_WORDS: ReadonlySet<string> = new Set(
  (
    'prohibit prohibited forbid forbidden ban banned disallow disallowed unable incapable ineligible lose lost forfeit forfeited ' +
    'exclude excluded deny denied refuse refused reject rejected decline declined invalid unavailable fail failed lack lacks ' +
    'impossible unpaid unlimited optional free waive waived revoke revoked cancel cancelled canceled expire expired'
  )
    .split(' ')
    .map((w) => stem(w)),
);

/** Words that forbid what they govern: an affirmed sentence backed by a place holding one is denied there. */
export const FORBIDDING_WORDS: ReadonlySet<string> = new Set(
  'prohibit prohibited forbid forbidden ban banned disallow disallowed ineligible'.split(' ').map((w) => stem(w)),
);

/** Pairs of words whose meanings exclude each other: "allowed" against "prohibited". */
const ANTONYM_PAIRS = `
allow prohibit
allow forbid
allow ban
permit prohibit
permit forbid
able unable
eligible ineligible
keep lose
keep forfeit
retain forfeit
include exclude
accept reject
accept deny
approve deny
approve reject
grant deny
valid invalid
available unavailable
required optional
mandatory optional
paid unpaid
limited unlimited
possible impossible
public private
legal illegal
lawful unlawful
`;

/**
 * Words that carry no claim of their own in an answer: hedges, framing and the answer's address
 * to the reader ("generally", "you", "basically"). They neither back nor sink a sentence.
 */
export const SOFT_WORDS: ReadonlySet<string> = new Set(
  (
    'generally typically usually normally basically essentially actually really simply just ' +
    'likely probably possibly apparently mostly largely mainly ' +
    'according note noted notes please mention mentioned mentions say says said state states stated ' +
    'document documents documents passage passages policy policies handbook guide guidelines ' +
    'specifically explicitly clearly directly ' +
    'thing things something anything everything someone anyone everyone way ' +
    'yes okay ok sure indeed instance example ' +
    // Quantifiers are anchors (anchors.ts), and number words are values (values.ts): neither is wording to match.
    'every each any all whatever whichever whoever several many much ' +
    'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty ' +
    'thirty forty fifty sixty seventy eighty ninety hundred thousand million billion dozen'
  )
    .split(' ')
    .map((w) => stem(w)),
);

/** One alternative for a word: the stems that must all be in the passage ("law enforcement"). */
export type Alternative = readonly string[];

interface Lexicon {
  synonyms: Map<string, Alternative[]>;
  antonyms: Map<string, string[]>;
}

let built: Lexicon | undefined;

function parseMember(member: string): Alternative {
  return member.split('_').map((w) => stem(w));
}

function build(): Lexicon {
  const synonyms = new Map<string, Alternative[]>();
  for (const line of SYNONYM_GROUPS.trim().split('\n')) {
    // Known two-word members (TWO_WORD_MEMBERS) are one member: "law enforcement".
    const members = groupMembers(line).map(parseMember);
    for (const m of members) {
      if (m.length !== 1) continue;
      const list = synonyms.get(m[0]) ?? [];
      for (const other of members) {
        if (other.join(' ') !== m[0] && !list.some((a) => a.join(' ') === other.join(' '))) list.push(other);
      }
      synonyms.set(m[0], list);
    }
  }
  // A number word and its numeral are one word ("3 weeks" / "three weeks"); the values check
  // compares the numbers themselves.
  for (const [word, value] of Object.entries(NUMBER_WORDS)) {
    const [a, b] = [stem(word), String(value)];
    synonyms.set(a, [...(synonyms.get(a) ?? []), [b]]);
    synonyms.set(b, [...(synonyms.get(b) ?? []), [a]]);
  }
  // An ordinal word and its numeral are one word ("fifteenth century" / "15th-century"). Only a
  // word: an ordinal is not read as a value.
  ORDINALS.forEach((word, i) => {
    const n = i + 1;
    const suffix =
      n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
    // The tokens read "15th" as "15" and "th".
    const a = stem(word);
    synonyms.set(a, [...(synonyms.get(a) ?? []), [String(n), suffix]]);
  });
  // A month written short is the month ("Nov 14" / "November"); the date check reads which month it is.
  for (const [short, full] of monthAbbreviations()) {
    const [a, b] = [stem(short), stem(full)];
    synonyms.set(b, [...(synonyms.get(b) ?? []), [a]]);
    synonyms.set(a, [...(synonyms.get(a) ?? []), [b]]);
  }
  const antonyms = new Map<string, string[]>();
  for (const line of ANTONYM_PAIRS.trim().split('\n')) {
    const [a, b] = line
      .trim()
      .split(/\s+/)
      .map((w) => stem(w));
    antonyms.set(a, [...(antonyms.get(a) ?? []), b]);
    antonyms.set(b, [...(antonyms.get(b) ?? []), a]);
  }
  // Every synonym of a word shares its antonyms ("permitted" excludes "banned" as "allowed" does).
  for (const [word, list] of [...antonyms]) {
    for (const alt of synonyms.get(word) ?? []) {
      if (alt.length !== 1) continue;
      const existing = antonyms.get(alt[0]) ?? [];
      antonyms.set(alt[0], [...new Set([...existing, ...list])]);
    }
  }
  return { synonyms, antonyms };
}

/** A group line's members: single words, and the known two-word members kept whole. */
function groupMembers(line: string): string[] {
  const words = line.trim().split(/\s+/);
  const members: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = `${words[i]} ${words[i + 1] ?? ''}`;
    if (TWO_WORD_MEMBERS.has(pair)) {
      members.push(pair.replace(' ', '_'));
      i++;
    } else {
      members.push(words[i]);
    }
  }
  return members;
}

/** Ordinal words, first to twenty-first… written as one word: "first" is 1st, "twentieth" 20th. */
const ORDINALS = (
  'first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth ' +
  'fifteenth sixteenth seventeenth eighteenth nineteenth twentieth'
).split(' ');

/** Members of two words in the groups above. */
const TWO_WORD_MEMBERS = new Set(['law enforcement', 'take place', 'annual leave']);

function lexicon(): Lexicon {
  built ??= build();
  return built;
}

/** What a passage may say instead of the word with this stem (none for most words). */
export function alternativesOf(stemmed: string): readonly Alternative[] {
  const listed = lexicon().synonyms.get(stemmed);
  if (ADVERB.test(stemmed)) return listed ?? adverbBase(stemmed);
  return withForm(stemmed, listed);
}

const forms = new Map<string, readonly Alternative[]>();

/** The lexicon's alternatives and the other form of a doubled consonant, made once per stem. */
function withForm(stemmed: string, listed: readonly Alternative[] | undefined): readonly Alternative[] {
  const other = doubledBase(stemmed);
  if (other.length === 0) return listed ?? [];
  let all = forms.get(stemmed);
  if (!all) {
    if (forms.size >= 4096) forms.clear();
    all = [...(listed ?? []), ...other];
    forms.set(stemmed, all);
  }
  return all;
}

// A verb whose last consonant doubles before "-able" / "-ence", where the Porter stemmer undoubles it
// only before "-ed" / "-ing": "transferred" is "transfer", "transferrable" stays "transferr" ("occurred"
// / "occurrence", "submitted" / "submittable"). Each form meets the other (stems of five letters or
// more ending in a vowel and "r" or "t", so "ad" never meets "add").
const SINGLE = /[^aeiou][aeiou][rt]$/;
const DOUBLE = /[aeiou](rr|tt)$/;

function doubledBase(stemmed: string): readonly Alternative[] {
  if (stemmed.length >= 5 && SINGLE.test(stemmed)) return [[stemmed + stemmed[stemmed.length - 1]]];
  if (stemmed.length >= 6 && DOUBLE.test(stemmed)) return [[stemmed.slice(0, -1)]];
  return [];
}

// An adverb of manner on "-fully" / "-lessly", whose stem the Porter stemmer leaves as "…fulli"
// (the later Porter2 stemmer reads "fulli" as "ful"): "respectfully" says what "with respect" or
// "respectful" says.
const ADVERB = /(?:ful|less)li$/;
const adverbs = new Map<string, readonly Alternative[]>();

function adverbBase(stemmed: string): readonly Alternative[] {
  let alternatives = adverbs.get(stemmed);
  if (!alternatives) {
    const base = stem(stemmed.slice(0, -2));
    alternatives = base.length >= 3 ? [[base]] : [];
    adverbs.set(stemmed, alternatives);
  }
  return alternatives;
}

/** Whether `stems` hold a word the lexicon takes for this one (every word of a two-word member: "law enforcement" for "police"). */
export function metByAlternative(stemmed: string, stems: { has(stem: string): boolean }): boolean {
  return alternativesOf(stemmed).some((alt) => alt.every((s) => stems.has(s)));
}

/** Stems whose meaning excludes this one ("prohibit" for "allow"). */
export function antonymsOf(stemmed: string): readonly string[] {
  return lexicon().antonyms.get(stemmed) ?? [];
}

export function isSoftWord(stemmed: string): boolean {
  return SOFT_WORDS.has(stemmed);
}

/** How many entries the lexicon holds (for the docs and a size check). */
export function lexiconSize(): { words: number; antonymWords: number } {
  const l = lexicon();
  return { words: l.synonyms.size, antonymWords: l.antonyms.size };
}
