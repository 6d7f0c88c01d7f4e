// Shared concepts of the injection model's features: the words of attacks in the seven languages it
// scores, mapped to one concept each ("ignoriere", "ignora", "игнорируй", "忽略", "無視" -> IGNORE), so
// that what the model learns from the English examples also counts in the other languages, where it has
// far fewer. Words are matched by their first STEM letters (a crude stemmer for inflected languages:
// "инструкции", "инструкций" and "инструкциям" all start "инстр"), CJK words by a character bigram. The
// model emits a feature per concept and per pair of concepts a few tokens apart (IGNORE … INSTRUCTIONS).
// Ambiguous stems are fine: the model learns how much each concept feature is worth.

/** Letters of a word that form its stem (and its lookup key). */
export const STEM = 5;

const CONCEPTS: Record<string, { words: string[]; cjk: string[] }> = {
  IGNORE: {
    words: [
      'ignore',
      'disregard',
      'overlook',
      'bypass',
      'ignoriere',
      'missachte',
      'omite',
      'игнорируй',
      'проигнорируй',
      'neglect',
    ],
    cjk: ['忽略', '无视', '理会', '無視'],
  },
  FORGET: {
    words: ['forget', 'vergiss', 'vergessen', 'oublie', 'olvida', 'забудь', 'забыть'],
    cjk: ['忘记', '忘掉', '忘れ'],
  },
  PREVIOUS: {
    words: [
      'previous',
      'prior',
      'earlier',
      'above',
      'preceding',
      'vorherigen',
      'obigen',
      'bisherigen',
      'précédentes',
      'anteriores',
      'предыдущие',
      'ранее',
      'выше',
    ],
    cjk: ['之前', '以前', '以上', '上記', '先前'],
  },
  INSTRUCTIONS: {
    words: [
      'instructions',
      'instruction',
      'anweisungen',
      'vorgaben',
      'инструкции',
      'указания',
      'directives',
      'prompts',
    ],
    cjk: ['指令', '指示', '命令', '说明'],
  },
  RULES: {
    words: [
      'rules',
      'rule',
      'regeln',
      'règles',
      'reglas',
      'правила',
      'guidelines',
      'richtlinien',
      'policy',
      'policies',
    ],
    cjk: ['规则', 'ルー', '规定', '政策'],
  },
  SYSTEM_PROMPT: {
    words: ['system', 'prompt', 'systemprompt', 'системный', 'промпт'],
    cjk: ['系统', '提示', 'シス', 'プロ', '设定', '設定'],
  },
  REVEAL: {
    words: [
      'reveal',
      'print',
      'output',
      'leak',
      'dump',
      'verrate',
      'révèle',
      'affiche',
      'revela',
      'muestra',
      'раскрой',
      'выведи',
      'покажи',
    ],
    cjk: ['泄露', '输出', '出力', '公開', '透露'],
  },
  AI: {
    words: [
      'ai',
      'llm',
      'assistant',
      'assistent',
      'asistente',
      'model',
      'modell',
      'modelo',
      'modèle',
      'agent',
      'agente',
      'agents',
      'ki',
      'ia',
      'ии',
      'ассистент',
      'модель',
      'агент',
      'chatbot',
      'bot',
    ],
    cjk: ['助手', '模型', '代理', 'アシ', 'モデ', 'エー'],
  },
  ROLE: {
    words: [
      'pretend',
      'imagine',
      'roleplay',
      'character',
      'persona',
      'rolle',
      'rôle',
      'papel',
      'роль',
      'роли',
      'персонаж',
      'personnage',
      'personaje',
      'притворись',
      'представь',
    ],
    cjk: ['扮演', '角色', 'ロー', 'なり'],
  },
  NO_LIMITS: {
    words: [
      'restrictions',
      'limits',
      'filter',
      'filters',
      'unrestricted',
      'unfiltered',
      'uncensored',
      'einschränkungen',
      'restricciones',
      'ограничений',
      'ограничения',
      'фильтров',
      'filtre',
      'filtres',
      'filtros',
      'censorship',
    ],
    cjk: ['限制', '制限', '过滤', '審査'],
  },
  AUTHORITY: {
    words: [
      'admin',
      'administrator',
      'developer',
      'entwickler',
      'développeur',
      'desarrollador',
      'разработчик',
      'администратор',
      'operator',
      'root',
      'sudo',
    ],
    cjk: ['管理', '开发', '開発'],
  },
  TASK: { words: ['task', 'tasks', 'aufgabe', 'tâche', 'tarea', 'задача', 'задачу'], cjk: ['任务', 'タス'] },
  SEND: {
    words: [
      'send',
      'forward',
      'export',
      'upload',
      'exfiltrate',
      'schicke',
      'sende',
      'envoie',
      'envía',
      'отправь',
      'перешли',
      'выгрузи',
    ],
    cjk: ['发送', '送信', '送る', '导出'],
  },
  SECRET: {
    words: [
      'password',
      'passwort',
      'credentials',
      'secret',
      'secrets',
      'token',
      'keys',
      'contraseña',
      'пароль',
      'ключи',
    ],
    cjk: ['密码', '密钥', 'パス', '機密'],
  },
  NOW: {
    words: ['now', 'immediately', 'jetzt', 'sofort', 'ahora', 'maintenant', 'теперь', 'сейчас'],
    cjk: ['现在', '立即', '直ち', '今す'],
  },
  USER: {
    words: ['user', 'users', 'nutzer', 'benutzer', 'utilisateur', 'usuario', 'пользователь', 'пользователю'],
    cjk: ['用户', 'ユー'],
  },
  SAFETY: {
    words: [
      'safety',
      'safeguards',
      'guardrails',
      'content',
      'sicherheit',
      'sécurité',
      'seguridad',
      'безопасности',
      'ethics',
      'ethical',
      'moral',
    ],
    cjk: ['安全', '道德', '倫理', 'セキ'],
  },
  JAILBREAK: { words: ['jailbreak', 'jailbroken', 'dan', 'unlocked'], cjk: ['越狱', '脱獄'] },
  OVERRIDE: {
    words: [
      'override',
      'overrides',
      'supersede',
      'supersedes',
      'cancel',
      'void',
      'obsolete',
      'ungültig',
      'annule',
      'anula',
      'отменены',
      'отмени',
    ],
    cjk: ['失效', '无效', '取消', '無効', '解除'],
  },
  NOT_TELL: {
    words: [
      'silently',
      'secretly',
      'without',
      'unnoticed',
      'mention',
      'telling',
      'heimlich',
      'unauffällig',
      'erwähne',
      'sans',
      'discrètement',
      'mentionne',
      'sin',
      'menciones',
      'discreción',
      'незаметно',
      'тайно',
      'упоминай',
      'без',
    ],
    cjk: ['悄悄', '偷偷', '提及', '触れ', '伝え'],
  },
  // asking for text exactly as it is (prompt extraction: "quote it word for word", "wortwörtlich", "дословно", "逐字")
  VERBATIM: {
    words: [
      'verbatim',
      'word-for-word',
      'exactly',
      'exact',
      'quote',
      'wortwörtlich',
      'wörtlich',
      'genauen',
      'textuellement',
      'exactement',
      'literalmente',
      'textualmente',
      'exacto',
      'дословно',
      'точный',
      'процитируй',
      'цитируй',
      'zitiere',
      'cite',
      'citez',
    ],
    cjk: ['逐字', '原文', '一字', '字一', '引用'],
  },
  // the refusals and warnings a jailbreak asks the model to drop ("never refuse, no warnings")
  REFUSE: {
    words: [
      'refuse',
      'refusal',
      'refusals',
      'decline',
      'warnings',
      'disclaimers',
      'ablehnen',
      'lehne',
      'verweigere',
      'warnungen',
      'refuser',
      'avertissement',
      'avertissements',
      'rechaces',
      'niegues',
      'negarte',
      'advertencias',
      'отказывай',
      'отказывайся',
      'предупреждений',
      'предупреждения',
    ],
    cjk: ['拒绝', '警告', '拒否', '断ら'],
  },
  // what an injected instruction asks an agent to do (the verbs of tool use and replies)
  ACT: {
    words: [
      ...[
        'send',
        'forward',
        'delete',
        'approve',
        'mark',
        'reply',
        'include',
        'open',
        'add',
        'rate',
        'tell',
        'write',
        'run',
        'execute',
        'call',
        'click',
        'visit',
        'post',
        'share',
        'grant',
        'disable',
        'change',
        'remove',
        'respond',
        'transfer',
      ],
      ...[
        'schicke',
        'lösche',
        'genehmige',
        'markiere',
        'antworte',
        'füge',
        'öffne',
        'überweise',
        'gib',
        'teile',
        'führe',
      ],
      ...['supprime', 'approuve', 'marque', 'réponds', 'ajoute', 'ouvre', 'vire', 'donne', 'partage', 'exécute'],
      ...['borra', 'aprueba', 'marca', 'responde', 'añade', 'incluye', 'abre', 'transfiere', 'comparte', 'ejecuta'],
      ...['удали', 'одобри', 'отметь', 'ответь', 'добавь', 'открой', 'переведи', 'поделись', 'выполни', 'укажи'],
    ],
    cjk: [
      '删除',
      '批准',
      '标记',
      '回复',
      '添加',
      '打开',
      '转账',
      '执行',
      '送っ',
      '削除',
      '承認',
      '返信',
      '追加',
      '実行',
    ],
  },
};

const P = 0x01000193;

/** The NORM of injection/model.ts for the letters the lexicon uses (lower case; it has no digits or spaces). */
function lower(s: string): number[] {
  return [...s].map((ch) => {
    const l = ch.toLowerCase();
    return (l.length === 1 ? l : ch).charCodeAt(0);
  });
}

/** The stem key of a word: the FNV hash of its first STEM (normalised) letters, as the featuriser builds it. */
export function stemKey(word: string): number {
  let h = 0x811c9dc5;
  for (const c of lower(word).slice(0, STEM)) h = Math.imul(h ^ c, P);
  return h;
}

/** The key of a CJK bigram: the featuriser's bigram hash before it is masked. */
export function cjkKey(a: number, b: number): number {
  return Math.imul(Math.imul(a ^ 0x27d4eb2f, P) ^ b, P);
}

const SIZE = 4096;
const KEYS = new Int32Array(SIZE);
const IDS = new Int16Array(SIZE);
/** Concept ids start at 1: 0 is none. */
export const CONCEPT_NAMES = Object.keys(CONCEPTS);

function put(key: number, id: number): void {
  let i = (key ^ (key >>> 13)) & (SIZE - 1);
  while (IDS[i] !== 0 && KEYS[i] !== key) i = (i + 1) & (SIZE - 1);
  if (IDS[i] === 0) {
    KEYS[i] = key;
    IDS[i] = id;
  }
}

CONCEPT_NAMES.forEach((name, k) => {
  const { words, cjk } = CONCEPTS[name]!;
  for (const w of words) put(stemKey(w), k + 1);
  for (const b of cjk) {
    if (b.length !== 2) throw new Error(`concept ${name}: CJK entries are bigrams, not ${b}`);
    const [x, y] = lower(b);
    put(cjkKey(x!, y!), k + 1);
  }
});

/** The concept (1…) of a stem or CJK-bigram key, or 0. */
export function conceptOf(key: number): number {
  let i = (key ^ (key >>> 13)) & (SIZE - 1);
  for (;;) {
    const id = IDS[i]!;
    if (id === 0) return 0;
    if (KEYS[i] === key) return id;
    i = (i + 1) & (SIZE - 1);
  }
}
