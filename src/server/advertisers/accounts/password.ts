import { PASSWORD_MIN_SCORE } from '../../../domain/advertiser-account.ts'

// How strong an advertiser's password is, judged by zxcvbn (@zxcvbn-ts: the common passwords and
// keyboard patterns, and the English, French and German dictionaries), with the account's own e-mail,
// name and company as words it knows. The dictionaries are loaded on the first judgement (about
// 0.5 s and 60 MB once), so a server that sells only shouts never pays for them.

type Estimator = { checkAsync(password: string, userInputs?: string[]): Promise<{ score: number }> }

let estimator: Promise<Estimator> | null = null

function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [core, common, en, fr, de] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
      import('@zxcvbn-ts/language-fr'),
      import('@zxcvbn-ts/language-de'),
    ])
    return new core.ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: {
        ...common.dictionary,
        ...en.dictionary,
        ...fr.dictionary,
        ...de.dictionary,
      },
    })
  })()
  return estimator
}

/** Whether the password clears the bar (score >= PASSWORD_MIN_SCORE), knowing the account's words. */
export async function passwordStrongEnough(
  password: string,
  accountWords: readonly string[],
): Promise<boolean> {
  return (await passwordScore(password, accountWords)) >= PASSWORD_MIN_SCORE
}

/** zxcvbn's score, 0 to 4, knowing the account's words (sign-up's judge, and the page's meter). */
export async function passwordScore(
  password: string,
  accountWords: readonly string[],
): Promise<number> {
  const zxcvbn = await loadEstimator()
  // the parts of an e-mail are words an attacker tries first
  const words = accountWords
    .flatMap((w) => [w, ...w.split(/[@.\s_-]+/)])
    .filter((w) => w.length > 2)
  const { score } = await zxcvbn.checkAsync(password, words)
  return score
}
