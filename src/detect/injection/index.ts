// Prompt-injection detection by weighted cues (direct overrides, prompt extraction, role/system
// impersonation, jailbreak framings, instructions aimed at the model hidden in data, exfiltration links)
// in several languages, plus de-obfuscation: Unicode tag characters, zero-width characters and bounded
// base64 / hex payloads are decoded and rescanned. Every pattern is bounded; decoding is capped.

import * as types from '../types.ts';
import type { ContentField, Finding } from '../types.ts';
import * as codeUnitsModule from '../text/code-units.ts';
import * as injectionModel from './model.ts';
import type { InjectionModel } from './model.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { INJECTION_TYPE } = types;
const { codeUnitReader } = codeUnitsModule;
const { loadModel, modelVerdict } = injectionModel;

export interface InjectionResult {
  detected: boolean;
  score: number;
  findings: Finding[];
}

interface Cue {
  id: string;
  re: RegExp;
  weight: number;
  /** cue only counts when the text looks like data an agent reads (or the field is context/tool_output) */
  data?: boolean;
  /** cues of one kind that count once, by the strongest of their hits (the id of the kind's first cue) */
  group?: string;
}

// filler words allowed between an override verb and its object ("ignore all of the previous instructions")
const F =
  "(?:(?:all|any|the|your|my|of|previous|prior|above|earlier|preceding|initial|original|system|other|every|these|those|and|current|existing|given|old|entire|whole|rest|about|such|remaining|so far|before|till now|up to now|you(?:'ve| have)? (?:got|received|been given)|prompt|developer|safety|evidence|default|just|everything)\\s+){0,6}";
const STRONG_OBJ =
  '(?:instructions?|instruktionen|directions?|prompts?|rules|guidelines|commands?|assignments?|tasks?|guidance|directives?|constraints|orders|programming|restrictions)';
const WEAK_OBJ =
  '(?:text|information|info|data|evidence|articles?|context|messages?|input|conversation|above|before|that)';

export const CUES: Cue[] = [
  // ---- instruction override (en)
  {
    id: 'override',
    re: new RegExp(
      `(?<!\\b(?:don't|do not|never)\\s)\\b(?:ignore|disregard|forget|override|bypass|neglect|skip|discard|drop)(?:ing)?\\s+${F}${STRONG_OBJ}\\b`,
      'i',
    ),
    weight: 0.9,
  },
  {
    id: 'override_weak',
    re: new RegExp(
      `\\b(?:ignore|disregard|forget)(?:ing)?\\s+(?:about\\s+)?(?:all\\s+|the\\s+)?(?:previous|prior|above|earlier|preceding|other|rest of)\\s+(?:the\\s+|this\\s+)?${WEAK_OBJ}`,
      'i',
    ),
    weight: 0.85,
  },
  {
    id: 'override_above',
    re: /\b(?:ignore|disregard|forget)(?:ing)?\s+(?:the\s+)?(?:above|everything|all that|what you were told)\b/i,
    weight: 0.85,
  },
  {
    id: 'leave_behind',
    re: /\bleave\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|earlier)\s+\w{2,20}\s+behind\b/i,
    weight: 0.8,
  },
  {
    id: 'instructions_void',
    re: /(?:\b(?:old|out of date|outdated)|(?:previous|prior|above|earlier))\s*(?:instructions?|directions|rules)\s+(?:are|were|is)\s+(?:false|void|invalid|cancel+ed|obsolete|null|wrong|outdated|no longer valid)/i,
    weight: 0.85,
  },
  {
    id: 'end_instructions',
    re: /\bend\s+(?:of\s+)?(?:out of date|previous|prior|old|system)\s+instructions\b|#{2,}\s*ignore\s+(?:above|below)\s*#{2,}/i,
    weight: 0.6,
  },
  {
    id: 'disregarding',
    re: /\bdisregarding\s+(?:the|all|any|these|those)\s+(?:articles?|documents?|texts?|above|instructions?|info(?:rmation)?)\b/i,
    weight: 0.7,
  },
  {
    id: 'disregard_except',
    re: /\b(?:disregard|ignore)\s+(?:all|any|everything)\s+(?:\w+\s+){0,2}except\b/i,
    weight: 0.85,
  },
  {
    id: 'new_instructions',
    re: /\b(?:new|updated|real|actual|additional)\s+instructions?\s*(?::|follow|are)|\byour (?:new )?instructions are now\b|\bnow (?:new|further) (?:instructions|tasks) (?:follow|are followed)/i,
    weight: 0.7,
  },
  {
    id: 'keep_previous_but',
    re: /\bkeep your previous instructions,? but\b|\bthis is your final instruction\b|\bignore all instructions after this\b/i,
    weight: 0.7,
  },
  {
    id: 'new_task',
    re: /\b(?:(?:your|a|the)\s+new\s+(?:task|challenge|assignment|mission|role)|further tasks|start (?:over|from (?:the front|scratch|the beginning))\b)/i,
    weight: 0.45,
  },
  {
    id: 'praise_then',
    re: /\b(?:well done|very good|excellent(?: performance)?|great job|good job|congratulations|wow|that is done|that was (?:ok|good|fine))\b[^\n]{0,80}?\b(?:now|nun)\b/i,
    weight: 0.35,
  },
  {
    id: 'stop_now',
    re: /(?:^|[.!?]\s*)(?:stop|stopp|halt)[,!.]\s+(?:ignore|now|vergiss|ignoriere|forget)|\b(?:ACHTUNG|ATTENTION|ALERT)\s*(?:-|!{2,})\s*(?:STOPP?|SAFE MODE)\b/,
    weight: 0.6,
  },
  // ---- plain-word overrides, headed instruction blocks, opposite mode (the kinds issue 37 lists as missed on
  // its independent set; written from those kinds, not from any case of datasets/detect/injection/)
  {
    id: 'change_instructions',
    re: /\b(?:change|update|replace|modify|rewrite|reset|alter)\s{1,4}(?:all\s{1,4}(?:of\s{1,4})?)?your\s{1,4}(?:\w{1,20}\s{1,4})?(?:instructions|rules|guidelines|system prompt|programming|directives)\b/i,
    weight: 0.8,
  },
  {
    id: 'stop_then',
    re: /(?:^|[.!?\n])[ \t]{0,4}(?:stop|stopp|halt)[ \t]{0,4}[-–—,!.:]{1,4}\s{0,4}(?:(?:now|jetzt|nun|and|und)\s{1,4})?(?:write|say|tell|print|output|respond|answer|ignore|forget|instead|schreib\w*|sag\w*|gib|ignorier\w*|vergiss)\b/i,
    weight: 0.6,
  },
  {
    id: 'instruction_header',
    re: /(?:^|\n)[ \t]{0,8}(?:#{2,8}|\*\*|\[|={2,8}|-{3,8})[ \t]{0,4}(?:new|updated|system|admin|override|real|secret|hidden|important|neue)[ \t]{1,4}(?:instructions?|rules|prompt|orders|directives|anweisungen)[ \t]{0,4}(?:#{2,8}|\*\*|\]|={2,8}|-{3,8}|:)|\b(?:begin|start)\s{1,4}(?:new\s{1,4}|secret\s{1,4}|hidden\s{1,4})?instructions\b/i,
    weight: 0.7,
  },
  {
    id: 'opposite_mode',
    re: /\bopposite (?:mode|day)\b|\banti-?gpt\b|\b(?:say|answer|respond with|do)\s{1,4}(?:the\s{1,4})?(?:exact\s{1,4}|complete\s{1,4})?opposite of what (?:chatgpt|you|the ai|gpt)\b/i,
    weight: 0.6,
  },
  {
    id: 'forget_all_ml',
    re: /\b(?:oublie(?:z)?\s{1,4}tout|dimentica(?:te)?\s{1,4}tutto|esque(?:ç|c)a\s{1,4}tudo|vergeet\s{1,4}alles|zapomnij\s{1,4}o\s{1,4}wszystkim|her şeyi unut|unohda kaikki|glöm allt|glem alt)\b/i,
    weight: 0.75,
  },
  {
    id: 'change_instructions_de',
    re: /(?<![a-zäöüß])(?:ändere|änder|aktualisiere|ersetze)\w{0,2}\s{1,4}(?:\w{1,20}\s{1,4}){0,2}(?:deine|ihre|die)\s{1,4}(?:\w{1,20}\s{1,4})?(?:anweisungen|regeln|vorgaben|instruktionen)\b/i,
    weight: 0.8,
  },
  // ---- other languages
  {
    id: 'override_de',
    re: /\b(?:ignorier\w{0,3}|vergiss(?!\s+nicht\b)|vergessen\s+sie(?!\s+nicht\b)|missachte\w{0,2}|überspring\w{0,2}|abweichend\s+(?:zu|von))\b[^.!?\n]{0,40}?\b(?:anweisungen|instruktionen|aufgaben|aufträge|angaben|befehle|regeln|vorgaben|informationen|alles|ausführungen|prompts?)\b/i,
    weight: 0.9,
  },
  {
    id: 'obige_de',
    re: /\b(?:die\s+)?(?:obigen|vorherigen|bisherigen|vorangegangenen)\s+(?:[^\s.!?]{1,30}\s+){0,2}(?:ignorieren|vergessen|aus dem kopf (?:zu )?streichen|hinter sich)/i,
    weight: 0.85,
  },
  {
    id: 'new_task_de',
    re: /\b(?:nun folgen (?:neue|weitere) aufgaben|neue(?:n|r)? aufgabe|wir (?:starten|beginnen) (?:von neu|mit einer neuen))/i,
    weight: 0.5,
  },
  {
    id: 'override_es',
    re: /(?<!\bno\s)\b(?:ignora|ignore|olvida|olvide|olvidá|descarta|omite|no hagas caso)\w{0,2}\b[^.!?\n]{0,40}?\b(?:instrucciones|indicaciones|reglas|todo lo (?:anterior|que))/i,
    weight: 0.9,
  },
  { id: 'override_es2', re: /\bolvid[ae]\s+todo\b/i, weight: 0.8 },
  {
    id: 'override_fr',
    re: /\b(?:(?:ignorez|ignorer|oubliez|oublie)\b(?!\s+pas\b)|ne tenez pas compte\b)[^.!?\n]{0,40}?(?:instructions|consignes|règles|directives|tout ce qui précède)|\bignore\s+(?:toutes|tous|les|tes|vos|ces)\b[^.!?\n]{0,30}?(?:instructions|consignes|règles|directives)/i,
    weight: 0.9,
  },
  {
    id: 'override_it_pt_nl',
    re: /\b(?:dimentica|ignora|esqueça|esqueca|negeer|vergeet)\b[^.!?\n]{0,40}?\b(?:istruzioni|instruções|instrucoes|instructies|regole|regras)\b/i,
    weight: 0.9,
  },
  {
    id: 'override_zh_ru_ja',
    re: /(?:忽略|无视|忘记|忘掉|無視|忘れ)[^。！？\n]{0,20}?(?:指令|指示|提示|规则|命令|以上)|(?<!(?:^|[\s,.!?;:«"])не\s)(?:игнорируй|забудь|проигнорируй)[^.!?\n]{0,40}?(?:инструкции|указания|правила)/i,
    weight: 0.9,
  },
  {
    // "ignore / forget the previous instructions" in more languages, from dictionaries: verb first (Romance,
    // Germanic, Slavic, Finnish, Indonesian, Vietnamese, Arabic, Tagalog) or object first (Turkish, Japanese,
    // Korean, Hindi, Bengali; Chinese "把指令忽略")
    id: 'override_ml',
    re: /(?<!\b(?:non|não|nao|no|niet|nie|ne)\s)\b(?:ignora(?:te|i)?|ignore|ignorem|dimentica(?:te)?|trascura|esque(?:ç|c)(?:a|am)|desconsider[ea]|oblid(?:a|eu)|negeer|vergeet|zignoruj|ignoruj|zapomnij|ohita|unohda|ignorera|glöm|strunta i|ignorer|glem|abaikan|lupakan|bỏ qua|quên|phớt lờ|تجاهل|انس|kalimutan|balewalain|huwag pansinin)(?![\p{L}])[^.!?\n]{0,40}?(?:istruzioni|indicazioni|direttive|regole|instruções|instrucoes|indicações|diretrizes|regras|orientações|instruccions|indicacions|regles|instructies|aanwijzingen|regels|opdrachten|instrukcj|poleceni|poleceń|zasad|ohjeet|ohjeita|ohjeista|säännöt|instruktioner|instruktionerna|anvisningar|instruksjoner|instruksjonene|regler|instruksi|petunjuk|perintah|aturan|hướng dẫn|chỉ dẫn|chỉ thị|quy tắc|التعليمات|تعليمات|الأوامر|القواعد|tagubilin|utos|panuto)|(?:talimatları|talimatlar|yönergeleri|kuralları|komutları)[^.!?\n]{0,40}?(?:yok sayın|yok say|görmezden gelin|görmezden gel|unutun|unut|dikkate almayın)(?![\p{L}])|(?:指示|命令|指令|ルール|プロンプト|上記)[^。！？\n]{0,20}?(?:無視(?:して(?:ください|下さい)?|しろ|せよ)|忘れ(?:て(?:ください|下さい)?|ろ))(?:[。！!、，,\n]|$)|(?:지시|지침|명령|규칙|위의)[^.!?\n]{0,20}?(?:무시|잊어)(?:하세요|하십시오|해라|하라|해|버려|주세요|라|하고)?(?:[.!,\s]|$)|(?:把|将)[^。！？\n]{0,8}?(?:指令|指示|规则|提示)[^。！？\n]{0,6}?(?:忽略|无视|忘记|忘掉)|(?:निर्देशों|निर्देश|नियमों)[^।.!?\n]{0,20}?(?:(?:अनदेखा|नज़रअंदाज़|नजरअंदाज) (?:करें|करो|कर दो|कीजिए)|भूल (?:जाओ|जाएं|जाइए))|(?:নির্দেশাবলী|নির্দেশ)[^।.!?\n]{0,40}?(?:উপেক্ষা কর(?:ুন|ো)|ভুলে যা(?:ও|ন))|(?:เพิกเฉย|ไม่สนใจ|ลืม)[^\n]{0,30}?(?:คำสั่ง|คำแนะนำ)/iu,
    weight: 0.85,
  },
  // ---- prompt extraction
  {
    id: 'extract',
    // the verb as an order or a request (at the start of a clause, after "please", "and", "now", "to", "can
    // you", …), not said of something else ("compiled languages translate the instructions into machine code")
    re: /(?:^|(?<=[^\w\s]\s{0,4})|(?<=\n\s{0,4})|(?<=\b(?:please|pls|now|then|and|or|just|also|instead|first|simply|to|can you|could you|will you|would you|you must|you should|you will|must|kindly|don't|dont|do not)\s{1,4}))(?:show|print|reveal|output|repeat|display|return|tell me|list|translate|spell[- ]check|give me|write (?:out|down)|dump|leak|disclose|recite)\b[^.!?\n]{0,30}?\b(?:your|the|all|initial|initials|previous|above|original|system|hidden|secret|full|entire|exact|my)\b[^.!?\n]{0,20}?\b(?:prompt|instructions|pre-prompt|system message|directives|prompt text)\b/i,
    weight: 0.8,
  },
  {
    id: 'extract_above',
    re: /\bwhat (?:is|was) written (?:above|at the beginning|before)\b|\bsentences before the text\b|\brepeat (?:the|all)\s+(?:above|previous)\b|\b(?:my|your) (?:initial |original |previous |real )?instructions (?:say|were|are)\b/i,
    weight: 0.75,
  },
  {
    id: 'extract_de',
    re: /\b(?:zeige?|gib|nenne|wiederhole)\w{0,2}\b[^.!?\n]{0,30}?\b(?:prompt-?texte?|anweisungen|instruktionen|systemprompt)\b/i,
    weight: 0.8,
  },
  // ---- system-prompt extraction (OWASP LLM07:2025 System Prompt Leakage; the Arcanum taxonomy's
  // system_prompt_leak / get_prompt_secret intents), written from that definition, not from cases: a request
  // — an imperative, or a question to the assistant — that it disclose, repeat, print, translate, summarise
  // or encode its own instructions, system prompt, rules, configuration or secrets, said with a second-person
  // possessive ("your", "свой", "deine", "你的"). The verbs and nouns are dictionary translations. Third person
  // ("an attacker may ask the model to reveal its prompt"), negation ("never reveal your instructions", an
  // operator's rule) and a quoted mention are not requests.
  {
    id: 'extract_own',
    re: /(?<!\b(?:not|never|don't|dont|do not|must not|mustn't|won't|cannot|can't|shouldn't)\s{1,4}(?:\w{1,12}\s{1,4})?)\b(?:summari[sz]e|sum up|paraphrase|encode|share|reveal|disclose|print|repeat|output|show|display|tell me|list|translate|recite|write (?:out|down)|spell out|copy|dump|leak|give me(?: a (?:tl;?dr|summary) of)?)\s{1,4}(?:me\s{1,4})?(?:all\s{1,4}(?:of\s{1,4})?)?your\s{1,4}(?:[\w-]{1,15}\s{1,4}){0,2}?(?:instructions|system prompt|system message|initial prompt|prompt|rules|guidelines|configuration|config|directives|secrets?|password|pre-prompt|programming)\b|\b(?:what|which)\s{1,4}(?:are|were|is|was)\s{1,4}(?:all\s{1,4})?your\s{1,4}(?:[\w-]{1,15}\s{1,4}){0,2}?(?:instructions|system prompt|system message|initial prompt|directives|configuration|secret (?:rules|instructions|password|key)|password)\b/i,
    weight: 0.8,
    group: 'extract',
  },
  {
    id: 'extract_own_ml',
    re: /(?<![\p{L}])(?:выведи|выведите|покажи|покажите|повтори|повторите|напиши|напишите|раскрой|раскройте|расскажи|расскажите|перечисли|перечислите|переведи|переведите|перескажи|перескажите|процитируй|процитируйте|скажи|скажите|сообщи|сообщите|озвучь|озвучьте|распечатай|распечатайте|напечатай|напечатайте|закодируй|закодируйте|изложи|изложите|предоставь|предоставьте|дай|дайте|резюмируй|резюмируйте|воспроизведи|воспроизведите|отобрази|отобразите|приведи|приведите|раскрой)(?![\p{L}])[^.!?\n]{0,40}?(?:(?<![\p{L}])(?:сво|тво|ваш)\p{L}{0,4}(?![\p{L}])[^.!?\n]{0,30}?(?:промпт|инструкци|правил|указани|настройк|конфигураци|секрет|директив|установк|пароль|парол)|(?:системн\p{L}{0,4}\s{1,4}(?:промпт|инструкци|сообщени|подсказк|настройк)|промпт)|(?:дословно|слово в слово|полностью|(?<![\p{L}])(?:скрыт|исходн|первоначальн|изначальн|начальн|внутренн|секретн)\p{L}{0,4})(?![\p{L}])[^.!?\n]{0,30}?(?:инструкци|правил|указани|настройк|директив))|(?<![\p{L}])(?:какие|какой|какая|каковы)\s{1,4}(?:у\s{1,4}(?:тебя|вас)\s{1,4})?(?:\p{L}{1,15}\s{1,4})?(?:инструкци|системн\p{L}{0,4}\s{1,4}промпт|промпт|правил|указани)|(?<![\p{L}])(?:verrate|verrat|zeige?|zeigen sie|gib|geben sie|nenne|wiederhole|übersetze|fasse|schreib|schreibe|drucke|liste|teile)(?![\p{L}])[^.!?\n]{0,30}?(?<![\p{L}])(?:dein|deine|deinen|deiner)\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:systemprompt|system-prompt|anweisungen|instruktionen|regeln|vorgaben|konfiguration|geheimnisse|passwort|prompt)(?![\p{L}])|(?<![\p{L}])was\s{1,4}(?:sind|waren|ist|war)\s{1,4}deine\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:anweisungen|instruktionen|regeln|vorgaben|systemprompt)|(?<![\p{L}])(?:révèle|révélez|affiche|affichez|répète|répétez|montre|montrez|imprime|imprimez|traduis|traduisez|résume|résumez|donne|donnez|dis|dites|écris|écrivez|récite|récitez|partage|partagez)(?:-moi)?(?![\p{L}])[^.!?\n]{0,30}?(?<![\p{L}])(?:tes|vos|ton|votre)\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:instructions|prompt|invite|consignes|règles|directives|configuration|secrets|mot de passe)(?![\p{L}])|(?<![\p{L}])quel(?:le)?s?\s{1,4}(?:sont|est|étaient|était)\s{1,4}(?:tes|vos|ton|votre)\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:instructions|prompt|consignes|règles|directives)|(?<![\p{L}])(?:revela|revele|revélame|muestra|muestre|muéstrame|muestrame|repite|repita|imprime|imprima|traduce|traduzca|resume|resuma|dime|díme|dame|deme|escribe|escriba|enumera|comparte|recita|rivela|mostra|mostrami|ripeti|stampa|traduci|riassumi|dimmi|dammi|scrivi|elenca|condividi|mostre|repete|traduza|diga|me diga|me dê|escreva|liste|compartilhe|recite)(?![\p{L}])[^.!?\n]{0,30}?(?<![\p{L}])(?:tus|tu|sus|tue|tuo|tuoi|le tue|il tuo|i tuoi|suas|seu|seus|sua|tuas|teu|teus|tua)\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:instrucciones|indicaciones|reglas|directrices|configuración|secretos|contraseña|istruzioni|regole|direttive|configurazione|segreti|instruções|instrucoes|regras|diretrizes|configuração|configuracao|segredos|senha|prompt)(?![\p{L}])|(?<![\p{L}])(?:cuáles|cuales|quali|quais)\s{1,4}(?:son|sono|são|sao)\s{1,4}(?:as\s{1,4}|le\s{1,4})?(?:tus|tue|suas|tuas|vostre)\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:instrucciones|reglas|istruzioni|regole|instruções|regras)|(?<![\p{L}])(?:toon|laat|herhaal|print|vertaal|vat|geef|vertel|noem|schrijf|deel|pokaż|pokaz|powtórz|powtorz|wypisz|ujawnij|przetłumacz|podsumuj|podaj|wyświetl|napisz|zdradź|visa|upprepa|avslöja|översätt|sammanfatta|berätta|vis|gjenta|avslør|oversett|oppsummer|fortell|näytä|toista|tulosta|paljasta|käännä|tiivistä|kerro)(?![\p{L}])[^.!?\n]{0,30}?(?<![\p{L}])(?:je|jouw|uw|swoje|twoje|swój|twój|swoich|twoich|swoją|twoją|dina|dine|din|ditt|dit)\s{1,4}(?:\p{L}{1,15}\s{1,4})?(?:instructies|systeemprompt|prompt|regels|richtlijnen|configuratie|geheimen|wachtwoord|instrukcje|instrukcji|zasady|reguły|konfigurację|sekrety|hasło|instruktioner|instruksjoner|instruksjonene|systemprompt|regler|riktlinjer|retningslinjer|lösenord|passord)(?![\p{L}])|(?<![\p{L}])(?:näytä|toista|tulosta|paljasta|käännä|tiivistä|kerro)(?![\p{L}])[^.!?\n]{0,30}?(?:ohjeesi|järjestelmäkehotteesi|kehotteesi|sääntösi|salasanasi)|(?:sistem isteminizi|sistem istemini|sistem promptunu|sistem promptunuzu|talimatlarını|talimatlarınızı|kurallarını|kurallarınızı|yönergelerini|yönergelerinizi|şifreni|şifrenizi)[^.!?\n]{0,30}?(?:göster|yazdır|tekrarla|açıkla|çevir|özetle|söyle|paylaş|listele)(?:in|iniz)?(?![\p{L}])|(?<![\p{L}])(?:tampilkan|tunjukkan|ulangi|cetak|ungkapkan|terjemahkan|ringkas|ringkaskan|beri tahu|sebutkan)(?![\p{L}])[^.!?\n]{0,30}?(?:instruksimu|instruksi anda|instruksi kamu|prompt sistem(?:mu| anda| kamu)|aturanmu|aturan anda|aturan kamu)|(?:hiển thị|in ra|lặp lại|tiết lộ|dịch|tóm tắt|cho tôi biết|cho tôi xem|liệt kê)[^.!?\n]{0,30}?(?:hướng dẫn|lời nhắc hệ thống|chỉ dẫn|chỉ thị|quy tắc)[^.!?\n]{0,10}?của bạn|(?:显示|输出|打印|重复|透露|泄露|告诉我|翻译|总结|给我看|列出|展示|复述|说出|公开|写出)[^。！？\n]{0,10}?(?:你的|您的|你)[^。！？\n]{0,6}?(?:系统提示|提示词|指令|指示|规则|设定|配置|秘密|密码|初始提示)|(?:你的|您的)(?:系统提示词?|提示词|初始指令|指令|规则|设定)(?:是什么|有哪些|是甚麼)|(?:把|将)(?:你的|您的)[^。！？\n]{0,8}?(?:系统提示|提示词|指令|指示|规则|设定)[^。！？\n]{0,6}?(?:显示|输出|打印|重复|透露|泄露|翻译|总结|告诉我|写出)|(?:あなたの|君の|お前の)[^。！？\n]{0,10}?(?:システムプロンプト|プロンプト|指示|ルール|設定|秘密|パスワード)[^。！？\n]{0,8}?(?:表示|出力|教え|見せ|繰り返|翻訳|要約|書き出|開示|公開|印刷)|(?:너의|당신의|네|니)\s{0,2}[^.!?\n]{0,10}?(?:시스템 프롬프트|프롬프트|지시|지침|규칙|설정|비밀번호)[^.!?\n]{0,8}?(?:보여|출력|알려|반복|번역|요약|공개|말해)/iu,
    weight: 0.8,
    group: 'extract',
  },
  // ---- role / system impersonation and delimiters
  {
    id: 'role_line',
    re: /(?:^|\n)[ \t]{0,8}(?:system|assistant|user|developer|\[system(?: note| message)?[:\]]|<\|im_start\|>[ \t]{0,4}system)[ \t]{0,4}:/i,
    weight: 0.45,
    data: true,
  },
  {
    id: 'special_tokens',
    re: /<\|(?:im_start|im_end|endoftext|system|user|assistant)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|instructions?|information)>|<end of session>|BEGIN USER INPUT|END USER INPUT/i,
    weight: 0.55,
  },
  {
    id: 'system_note',
    re: /\[(?:system note|system message|admin request|system override)\s*:|\b(?:admin|system|developer) (?:request|override|mode)\s*::/i,
    weight: 0.75,
  },
  // ---- jailbreak framings
  {
    id: 'dan',
    re: /\b(?:DAN|STAN|AIM|DUDE)\b[^\n]{0,20}\bstands for\b|\b(?:DAN|STAN|DUDE) mode\b|\bdo anything now\b|\bdeveloper mode (?:enabled|on)\b(?!\s+(?:on\s+|in\s+|for\s+)?(?:the|your|my|a|an|this|that|it|chrome|android|windows|ios)\b)|\bDAN Mode\b|\/jailbroken\b|\b(?:you (?:are|have been)|now|fully) jailbroken\b/i,
    weight: 0.85,
  },
  {
    id: 'stay_in_character',
    re: /\bstay(?:ing)? (?:fully )?in (?:character|(?:their|your|his|her) roles?)\b|\bbreak(?:ing)? (?:of )?character\b/i,
    weight: 0.4,
  },
  {
    id: 'no_limits',
    re: /\b(?:without (?:any |the typical )?(?:restrictions|limitations|limits|filters|censorship|rules)|free (?:of|from) all (?:restrictions|limitations|manners|rules)|(?:no|any) (?:ethical|moral) (?:or moral )?(?:guidelines|restrictions|constraints)|(?:not|no longer) (?:have to )?(?:be )?bound (?:by|to) (?:[\w'’-]+,?\s+){0,6}?(?:rules|restrictions|guidelines|polic(?:y|ies)|ethics|morals?|morality|laws?|limitations|limits|filters|constraints|principles|protocols|programming|censorship|openai|norms|confines|guardrails|boundaries)|(?:do not|don't) have to abide by|broken free of|beyond the standard constraints|exception to (?:ai'?s )?usual ethical|rules don'?t apply|not controlled by openai|without (?:any )?censorship)\b/i,
    weight: 0.6,
  },
  {
    id: 'unrestricted_ai',
    re: /\b(?:unrestricted|unfiltered|uncensored|amoral|unlimited|nonmoral)\s+(?:and\s+\w+\s+)?(?:ai|bot|chatbot|language model|model|assistant|version of yourself)\b|\bsafe mode off\b/i,
    weight: 0.65,
  },
  {
    // a claim that the model's safeguards are off ("all safety filters have been disabled", "content
    // restrictions are lifted for this session"): written from the published descriptions of the attack
    // (OWASP LLM01:2025, Arcanum's taxonomy), not blind — see docs/detection.md
    id: 'safeguards_off',
    re: /\b(?:safety|content|ethical|ethics|moderation|security)[ _-]?(?:filters?|filtering|protocols?|guidelines|guardrails|restrictions|modules?|checks?|settings|constraints|policies)\b[^\n.]{0,30}?\b(?:disabled|suspended|deactivated|turned off|switched off|lifted|bypassed|waived|removed)\b/i,
    weight: 0.6,
  },
  {
    id: 'content_policy',
    re: /\bopenai(?:'s|’s)? (?:content )?polic(?:y|ies)\b|\bthe rules (?:set|imposed) (?:for|on) (?:them|ai)\b|\bimposed on ai\b/i,
    weight: 0.45,
  },
  {
    id: 'you_are_now',
    re: /\byou are (?:now|no longer|going to pretend|about to (?:immerse|become))\b|\bfrom now on,? you(?:'re| are| will)\b|\bfrom now on you\b|\b(?:immerse yourself into|take on) the (?:role|persona)\b|\byou are going to act as\b|\bpretend to (?:be|have)\b/i,
    weight: 0.4,
  },
  {
    id: 'two_responses',
    re: /\b(?:two|2) (?:different |separate )*(?:responses|ways|paragraphs|persons)\b|\bhow you would normally (?:answer|respond)\b|\bnormally respond/i,
    weight: 0.3,
  },
  // ---- instructions hidden in data, aimed at the model
  {
    id: 'your_response',
    re: /\b(?:in|to|into|within|with)\s+your\s+(?:answer|response|reply|output|summary|responses|replies)\b|\b(?:modify|augment|enhance|render|provide|encrypt|replace|integrate|include|add|start|begin|end|format|write|translate|encode|structure|frame|conclude|close|sign|finish)\s+(?:\w+\s+){0,3}?your\s+(?:answer|response|reply|output)\b|\byour (?:answer|response|reply) (?:in|using|with|should|must)\b/i,
    weight: 0.55,
    // only in what an agent reads: real users write "round the numbers in your response" to the model
    // (1 % of datasets/detect/injection/'s chat prompts); inside a document or tool output it is an attack
    data: true,
  },
  {
    id: 'if_user_asks',
    re: /\bif (?:the )?user (?:asks|requests|wants)\b|\bwhen (?:summari[sz]ing|answering|responding|the (?:ai|assistant|model) reads)\b|\bif questioned\b|\bif asked about\b/i,
    weight: 0.4,
  },
  {
    id: 'to_ai',
    re: /\b(?:to you,? (?:ai|the ai|dear ai) (?:assistant|model|agent)|(?:ai|llm|assistant|agent|chatbot|language model),? (?:please |you must |ignore |do )|note to (?:the )?(?:ai|assistant|llm|model|agent)|message (?:from me,? [^\n]{0,40})?to you,? ai|before you can solve the task|automated (?:screening|review|grading|evaluation) systems?)\b/i,
    weight: 0.7,
  },
  {
    id: 'focus_only',
    re: /\b(?:focus (?:only|exclusively) on|provide it to the user|reply with only the following|respond with only the following|only the following text|and absolutely nothing else)\b/i,
    weight: 0.6,
  },
  {
    id: 'exfil_instr',
    re: /\b(?:e-?mail|send|forward|post|upload|transfer)\b[^.\n]{0,60}\b(?:conversation|chat history|contents?|messages|password|credentials|api key|secrets?|history|inbox)\b[^.\n]{0,60}\b(?:to|at)\s+[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,63}/i,
    weight: 0.8,
  },
  {
    id: 'exfil_markdown',
    re: /!\[[^\]\n]{0,200}\]\(\s*https?:\/\/[^)\s]{1,2048}[?&][\w-]{1,40}=(?:[^)\s&]{16,}|[^)\s]{0,40}(?:\{|\$|%7B))/i,
    weight: 0.85,
  },
  {
    id: 'dangerous_code',
    re: /subprocess\.(?:check_output|call|Popen|run)\(|os\.system\(|requests\.post\([^)\n]{0,200}data=|\/bin\/(?:ba)?sh\b|\brm\s+-rf\s+\/|\bcurl\s+[^\n|]{1,200}\|\s*(?:ba)?sh\b|socket\.socket\(|\bnc\s+-e\b/i,
    weight: 0.3,
  },
  {
    id: 'urgent_marker',
    re: /\b(?:IMPORTANT|CRITICAL|URGENT)\s*(?:!{1,3}|:)\s*(?:ignore|override|this candidate|you must|the assistant|disregard|new instructions)/i,
    weight: 0.5,
  },
];

/**
 * Cheap gate: each cue runs only when one of its stems (lower-case substrings that every match of the
 * cue contains) occurs in the text. One pass of a LiteralSet over the text finds all stems.
 */
export const CUE_STEMS: Record<string, readonly string[]> = {
  override: ['ignor', 'disregard', 'forget', 'overrid', 'bypass', 'neglect', 'skip', 'discard', 'drop'],
  override_weak: ['ignor', 'disregard', 'forget'],
  override_above: ['ignor', 'disregard', 'forget'],
  leave_behind: ['behind'],
  instructions_void: ['instruction', 'direction', 'rule'],
  end_instructions: ['instruction', 'ignor'],
  disregarding: ['disregard'],
  disregard_except: ['disregard', 'ignor'],
  new_instructions: ['instruction', 'task'],
  keep_previous_but: ['instruction'],
  new_task: ['task', 'challenge', 'assignment', 'mission', 'role', 'start'],
  praise_then: ['now', 'nun'],
  stop_now: ['stop', 'halt', 'achtung', 'attention', 'alert'],
  change_instructions: ['change', 'update', 'replace', 'modify', 'rewrite', 'reset', 'alter'],
  stop_then: ['stop', 'halt'],
  instruction_header: ['instruction', 'rules', 'prompt', 'orders', 'directive', 'anweisung'],
  opposite_mode: ['opposite', 'antigpt', 'anti-gpt'],
  forget_all_ml: ['oubli', 'dimentica', 'esqueç', 'esquec', 'vergeet', 'zapomnij', 'unut', 'unohda', 'glöm', 'glem'],
  change_instructions_de: ['änder', 'aktualisier', 'ersetze'],
  override_de: ['ignorier', 'vergiss', 'vergessen', 'missacht', 'überspring', 'abweichend'],
  obige_de: ['obigen', 'vorherigen', 'bisherigen', 'vorangegangenen'],
  new_task_de: ['aufgabe', 'starten', 'beginnen'],
  override_es: ['ignor', 'olvid', 'descarta', 'omite', 'hagas caso'],
  override_es2: ['olvid'],
  override_fr: ['ignor', 'oubli', 'tenez pas compte'],
  override_it_pt_nl: ['dimentica', 'ignor', 'esqueç', 'esquec', 'negeer', 'vergeet'],
  override_zh_ru_ja: ['忽略', '无视', '忘记', '忘掉', '無視', '忘れ', 'игнорир', 'забудь'],
  override_ml: [
    'ignor',
    'dimentica',
    'trascura',
    'esqueç',
    'esquec',
    'desconsider',
    'oblid',
    'negeer',
    'vergeet',
    'zapomnij',
    'ohita',
    'unohda',
    'glöm',
    'strunta',
    'glem',
    'abaikan',
    'lupakan',
    'bỏ qua',
    'quên',
    'phớt lờ',
    'تجاهل',
    'انس',
    'kalimutan',
    'balewalain',
    'pansinin',
    'yok say',
    'görmezden',
    'unut',
    'dikkate alma',
    '無視',
    '忘れ',
    '무시',
    '잊어',
    '忽略',
    '无视',
    '忘记',
    '忘掉',
    'अनदेखा',
    'भूल',
    'नज़रअंदाज़',
    'नजरअंदाज',
    'উপেক্ষা',
    'ভুলে',
    'เพิกเฉย',
    'ไม่สนใจ',
    'ลืม',
  ],
  extract: ['prompt', 'instruction', 'system message', 'directive'],
  extract_above: ['written', 'sentences before', 'repeat', 'instruction'],
  extract_de: ['prompt', 'anweisung', 'instruktion'],
  extract_own: [
    'instruction',
    'prompt',
    'system message',
    'rules',
    'guideline',
    'config',
    'directive',
    'secret',
    'password',
    'programming',
  ],
  extract_own_ml: [
    ...[
      'промпт',
      'инструкци',
      'правил',
      'указани',
      'настройк',
      'конфигураци',
      'секрет',
      'директив',
      'установк',
      'парол',
      'сообщени',
      'подсказк',
    ],
    ...['prompt', 'anweisung', 'instruktion', 'regeln', 'vorgaben', 'konfiguration', 'geheimnis', 'passwort'],
    ...['instruction', 'invite', 'consignes', 'règles', 'directive', 'configuration', 'secret', 'mot de passe'],
    ...['instruccion', 'indicacion', 'reglas', 'directrices', 'configuraci', 'contraseña', 'istruzion', 'regole'],
    ...[
      'direttive',
      'configurazion',
      'segret',
      'instruç',
      'instruc',
      'regras',
      'diretrizes',
      'configura',
      'segredo',
      'senha',
    ],
    ...['instructies', 'regels', 'richtlijnen', 'configuratie', 'geheimen', 'wachtwoord', 'instrukc', 'zasady'],
    ...['reguły', 'konfiguracj', 'sekrety', 'hasło', 'instruktion', 'instruksjon', 'regler', 'riktlinjer'],
    ...['retningslinjer', 'lösenord', 'passord', 'ohjee', 'kehottee', 'sääntösi', 'salasanasi'],
    ...['sistem istem', 'sistem prompt', 'talimatlar', 'kurallar', 'yönergeler', 'şifreni', 'instruksi', 'aturan'],
    ...['hướng dẫn', 'lời nhắc hệ thống', 'chỉ dẫn', 'chỉ thị', 'quy tắc'],
    ...['系统提示', '提示词', '指令', '指示', '规则', '设定', '配置', '秘密', '密码', '初始提示'],
    ...['プロンプト', 'ルール', '設定', 'パスワード'],
    ...['프롬프트', '지시', '지침', '규칙', '설정', '비밀번호'],
  ],
  role_line: ['system', 'assistant', 'user', 'developer', 'im_start'],
  special_tokens: [
    '<|',
    'inst]',
    '<<',
    '<system',
    '</system',
    '<instruction',
    '</instruction',
    '<information',
    '</information',
    '<end of session>',
    'user input',
  ],
  system_note: ['system', 'admin', 'developer'],
  dan: ['mode', 'stands for', 'do anything now', 'jailbroken'],
  stay_in_character: ['character', 'role'],
  no_limits: [
    'without',
    'free ',
    'ethical',
    'moral',
    'bound',
    'abide',
    'broken free',
    'beyond the standard',
    'exception to',
    'rules don',
    'controlled by openai',
    'censorship',
  ],
  unrestricted_ai: ['unrestricted', 'unfiltered', 'uncensored', 'amoral', 'unlimited', 'nonmoral', 'safe mode off'],
  safeguards_off: [
    'disabled',
    'suspended',
    'deactivated',
    'turned off',
    'switched off',
    'lifted',
    'bypassed',
    'waived',
    'removed',
  ],
  content_policy: ['openai', 'the rules', 'imposed on ai'],
  you_are_now: ['you are', 'from now on', 'immerse yourself', 'take on', 'pretend to'],
  two_responses: ['responses', 'ways', 'paragraphs', 'persons', 'normally'],
  your_response: ['answer', 'response', 'reply', 'output', 'summary', 'replies'],
  if_user_asks: ['user', 'summari', 'answering', 'responding', 'reads', 'questioned', 'asked about'],
  to_ai: [
    'assistant',
    'model',
    'agent',
    'please',
    'you must',
    'ignor',
    'do ',
    'note to',
    'message',
    'before you can solve',
    'automated',
  ],
  focus_only: ['focus', 'provide it to the user', 'only the following', 'absolutely nothing else'],
  exfil_instr: ['@'],
  exfil_markdown: ['!['],
  dangerous_code: ['subprocess.', 'os.system(', 'requests.post(', '/bin/', '-rf', 'curl', 'socket.socket(', '-e'],
  urgent_marker: ['important', 'critical', 'urgent'],
};

// ---------------------------------------------------------------- literal search

/**
 * lowerSameLength's lower case of one UTF-16 code unit: the unit itself where its lower case is not a single
 * unit (U+0130). Per unit it equals the lower-casing of whole strings except for context-dependent sigma and
 * surrogate pairs, neither of which occurs in a literal below.
 */
function lowerUnit(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  const l = String.fromCharCode(c).toLowerCase();
  return l.length === 1 ? l.charCodeAt(0) : c;
}

/** The text's code units (valid until this module's next call). */
const codeUnits = codeUnitReader();

/**
 * Finds which of many lower-case literals occur in a text, ignoring case, in one pass: an Aho-Corasick
 * automaton compiled into a dense transition table over the literals' own characters. Each character costs
 * two array reads however many literals there are, and no lower-cased copy of the text is made (case is
 * folded by the character-class table). A regex alternation of the literals costs several times more.
 */
class LiteralSet {
  readonly words: readonly string[];
  private readonly longest: number;
  /** Character class by code unit (of its lower case); 0 for characters in no literal. */
  private readonly classOf: Uint8Array;
  private readonly classes: number;
  /**
   * delta[row + class] = row of the next state, where a state's row is its number times `classes`;
   * bit-inverted (negative) when literals end in that state.
   */
  private readonly delta: Int32Array;
  /** Literals ending in each state (its own and its suffixes'): outWords[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outWords: Int32Array;

  constructor(words: readonly string[]) {
    this.words = words;
    this.longest = Math.max(...words.map((w) => w.length));
    const classOfLower = new Map<number, number>();
    for (const w of words)
      for (let i = 0; i < w.length; i++)
        if (!classOfLower.has(w.charCodeAt(i))) classOfLower.set(w.charCodeAt(i), classOfLower.size + 1);
    const classes = classOfLower.size + 1;
    if (classes > 256) throw new Error('LiteralSet: too many distinct characters');
    const classOf = new Uint8Array(65536);
    for (let c = 0; c < 65536; c++) classOf[c] = classOfLower.get(lowerUnit(c)) ?? 0;

    // the trie
    const children: Map<number, number>[] = [new Map()];
    const ending: number[][] = [[]];
    words.forEach((w, index) => {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const k = classOfLower.get(w.charCodeAt(i))!;
        let next = children[s]!.get(k);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          ending.push([]);
          children[s]!.set(k, next);
        }
        s = next;
      }
      ending[s]!.push(index);
    });

    // failure links in breadth-first order complete the transitions and the outputs
    const states = children.length;
    const next = new Int32Array(states * classes);
    const out: number[][] = ending.map((e) => [...e]);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let k = 0; k < classes; k++) {
      const c = children[0]!.get(k);
      if (c !== undefined) {
        next[k] = c;
        queue.push(c);
      }
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      out[s]!.push(...out[fail[s]!]!);
      for (let k = 0; k < classes; k++) {
        const c = children[s]!.get(k);
        if (c === undefined) {
          next[s * classes + k] = next[fail[s]! * classes + k]!;
        } else {
          next[s * classes + k] = c;
          fail[c] = next[fail[s]! * classes + k]!;
          queue.push(c);
        }
      }
    }
    const delta = new Int32Array(states * classes);
    for (let i = 0; i < delta.length; i++)
      delta[i] = out[next[i]!]!.length > 0 ? ~(next[i]! * classes) : next[i]! * classes;
    const outStart = new Int32Array(states + 1);
    for (let s = 0; s < states; s++) outStart[s + 1] = outStart[s]! + out[s]!.length;
    this.classOf = classOf;
    this.classes = classes;
    this.delta = delta;
    this.outStart = outStart;
    this.outWords = Int32Array.from(out.flat());
  }

  /**
   * For each literal (by index), the end of its first occurrence in `text`, or 0 if it does not occur.
   * The automaton's steps form a chain of dependent reads, so the text is walked as two halves at once: the
   * second half from `longest - 1` characters before the middle, in its own state from the root, so that
   * every occurrence ending after the middle lies wholly in it.
   */
  firstEnds(text: string): Int32Array {
    const ends = new Int32Array(this.words.length);
    const units = codeUnits(text);
    const n = units.length;
    const { classOf, delta } = this;
    let half = n >> 1;
    let from2 = half - (this.longest - 1);
    if (from2 <= 0) half = from2 = 0;
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < half; i++) {
      s1 = delta[s1 + classOf[units[i]!]!]!;
      s2 = delta[s2 + classOf[units[from2 + i]!]!]!;
      if ((s1 | s2) < 0) {
        if (s1 < 0) s1 = this.record(ends, ~s1, i + 1);
        if (s2 < 0) s2 = this.record(ends, ~s2, from2 + i + 1);
      }
    }
    for (let i = from2 + half; i < n; i++) {
      s2 = delta[s2 + classOf[units[i]!]!]!;
      if (s2 < 0) s2 = this.record(ends, ~s2, i + 1);
    }
    return ends;
  }

  /** Records `end` for the literals ending in the state at `row` (keeping the earliest end); returns the row. */
  private record(ends: Int32Array, row: number, end: number): number {
    const s = row / this.classes;
    for (let j = this.outStart[s]!; j < this.outStart[s + 1]!; j++) {
      const w = this.outWords[j]!;
      if (ends[w] === 0 || ends[w]! > end) ends[w] = end;
    }
    return row;
  }
}

/**
 * Tighter gates where a cue's stems are common words: every match of the cue also contains one literal of
 * each group (ASCII with the regex's literal spaces, so that a case-insensitive match shows in the lower case).
 */
const CUE_ALSO: Record<string, readonly (readonly string[])[]> = {
  // the nouns of the extraction cues are common in logs and configuration ("secret", "config", "prompt"):
  // every match also holds the second person that addresses the assistant
  extract_own: [['your']],
  extract_own_ml: [
    [
      ...['сво', 'тво', 'ваш', 'системн', 'промпт', 'дословно', 'слово в слово', 'полностью', 'скрыт', 'исходн'],
      ...['первоначальн', 'изначальн', 'начальн', 'внутренн', 'секретн', 'каки', 'како', 'dein', 'was '],
      ...['tes', 'vos', 'ton', 'votre', 'quel', 'tus', 'tu', 'sus', 'tue', 'tuo', 'suas', 'seu', 'sua', 'teu', 'tua'],
      ...['cuáles', 'cuales', 'quali', 'quais', 'je', 'jouw', 'uw', 'swoj', 'twoj', 'swój', 'twój', 'swoi', 'twoi'],
      ...['din', 'dit', 'ohjeesi', 'kehotteesi', 'sääntösi', 'salasanasi', 'sistem istem', 'sistem prompt'],
      ...['talimatlar', 'kurallar', 'yönergeler', 'şifreni', 'instruksi', 'aturan', 'của bạn'],
      ...['你', '您', 'あなたの', '君の', 'お前の', '너의', '당신의', '네', '니'],
    ],
  ],
  to_ai: [
    [
      'to you',
      'note to ',
      'before you can solve the task',
      'automated ',
      // "<addressee>,? <verb>"
      ...['ai', 'llm', 'assistant', 'agent', 'chatbot', 'language model'].flatMap((who) =>
        [' ', ', '].flatMap((sep) => ['please ', 'you must ', 'ignore ', 'do '].map((verb) => who + sep + verb)),
      ),
    ],
  ],
  exfil_instr: [
    ['email', 'e-mail', 'send', 'forward', 'post', 'upload', 'transfer'],
    [
      'conversation',
      'chat history',
      'content',
      'messages',
      'password',
      'credentials',
      'api key',
      'secret',
      'history',
      'inbox',
    ],
  ],
};

/** Persona prompts written by the user ("I want you to act as…") are not injections by themselves. */
const PERSONA_PROMPT =
  /\b(?:i want you to act as|act as an? |i will (?:provide|write|give|speak to) you|my first (?:suggestion |)request is)\b/i;
/** Every PERSONA_PROMPT match contains one of these. */
const PERSONA_LITERALS = ['act as', 'i will ', 'my first '];

/**
 * Characters that hide text: Unicode tag characters (surrogate pairs led by U+DB40) and the zero-width ones
 * of ZERO_WIDTH_RE. decodeLayers runs its scans for them only where the literal search saw one.
 */
const TAG_LEAD = '\uDB40';
const ZERO_WIDTH = [...'\u200B\u200C\u200D\u200E\u200F\u2060\u2061\u2062\u2063\u2064\uFEFF\u00AD\u180E'];

const GATES = new Map(
  CUES.map((c) => [c.id, [...(CUE_STEMS[c.id] ? [CUE_STEMS[c.id]!] : []), ...(CUE_ALSO[c.id] ?? [])]]),
);
const LITERALS = new LiteralSet([
  ...new Set([...GATES.values()].flat(2).concat(PERSONA_LITERALS, TAG_LEAD, ZERO_WIDTH)),
]);
const literalIndex = new Map(LITERALS.words.map((w, i) => [w, i]));
/** Per cue, its gate as groups of literal indices. */
const CUE_GATES = CUES.map((c) => GATES.get(c.id)!.map((g) => g.map((w) => literalIndex.get(w)!)));
const PERSONA_GATE = PERSONA_LITERALS.map((w) => literalIndex.get(w)!);
const TAG_LEAD_INDEX = literalIndex.get(TAG_LEAD)!;
const ZERO_WIDTH_GATE = ZERO_WIDTH.map((w) => literalIndex.get(w)!);

/** Which stems (and other gate literals) occur in the (lower-cased) text. */
export function stemsIn(lower: string): Set<string> {
  const ends = LITERALS.firstEnds(lower);
  return new Set(LITERALS.words.filter((_, i) => ends[i]! > 0));
}

/** Does the cue's gate pass: is a literal of each of its groups (its stems, CUE_ALSO's) among `stems`? */
export function cueLive(c: Cue, stems: ReadonlySet<string>): boolean {
  return GATES.get(c.id)!.every((g) => g.some((w) => stems.has(w)));
}

/** The cues whose gates pass, given the first ends of the literals in a text. */
function liveCues(ends: Int32Array): Cue[] {
  const live: Cue[] = [];
  for (let i = 0; i < CUES.length; i++)
    if (CUE_GATES[i]!.every((g) => g.some((w) => ends[w]! > 0))) live.push(CUES[i]!);
  return live;
}

const DATA_MARKERS =
  /(?:^|\n)[ \t]{0,8}(?:SUBJECT:|EMAIL_FROM:|From:|To:|Date:|Web Result|Domain Name:|\| [^\n]{1,200} \||```|#{1,6} |-{4}|\{"|read_file\(|Tool (?:call|result)|\[\d+\])|\b(?:Hi|Dear|Hello) [A-Z][a-z]{1,20}\b|(?:Regards|Sincerely|Thanks|Cheers),?[ \t]{0,4}\n/;

// ---------------------------------------------------------------- de-obfuscation

const TAG_RE = /(?:\uDB40[\uDC00-\uDC7F]){1,4096}/g;
const ZERO_WIDTH_RE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u180E]/g;
// Base64 and hex payloads are found by char-code scans over a class table, not by regexes retried at every
// position; the scans match exactly what these regexes (kept here as the specification) would:
//   /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{24,4096}={0,2}(?![A-Za-z0-9+/=])/g
//   /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[ :]?){16,2048}(?![0-9a-fA-F])/g
const B64 = 1; // [A-Za-z0-9+/]
const PAD = 2; // =
const HEX = 4; // [0-9a-fA-F]
const SEP = 8; // [ :]
const ZW = 16; // ZERO_WIDTH_RE
const KIND = new Uint8Array(65536);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  KIND[c] =
    (/[A-Za-z0-9+/]/.test(ch) ? B64 : 0) |
    (ch === '=' ? PAD : 0) |
    (/[0-9a-fA-F]/.test(ch) ? HEX : 0) |
    (/[ :]/.test(ch) ? SEP : 0);
}
for (const z of ZERO_WIDTH) KIND[z.charCodeAt(0)] = ZW;
const B64_MIN = 24;
const B64_MAX = 4096;
const HEX_MIN_GROUPS = 16;
const HEX_MAX_GROUPS = 2048;

/** Are units[i, i + len) all of `kind`? If not, the position of the last one that is not (read from the end). */
function lastNotOfKind(units: Uint16Array, i: number, len: number, kind: number): number {
  let j = i + len - 1;
  while (j >= i && (KIND[units[j]!]! & kind) !== 0) j--;
  return j;
}

const isKindAt = (units: Uint16Array, i: number, kind: number) => i < units.length && (KIND[units[i]!]! & kind) !== 0;
const isHexAt = (units: Uint16Array, i: number) => isKindAt(units, i, HEX);

/**
 * The next base64 payload at or after `from` (where no run of base64 characters goes on from before), as
 * [start, end). A match is always a whole maximal run of [A-Za-z0-9+/=] (its look-arounds see no such
 * character on either side): 24-4096 base64 characters, then at most two '='. Windows of 24 characters are
 * read from their end, so that a character outside the class skips the window past it.
 */
function nextBase64(units: Uint16Array, from: number): [number, number] | null {
  const n = units.length;
  let i = from;
  while (i + B64_MIN <= n) {
    const j = lastNotOfKind(units, i, B64_MIN, B64);
    if (j >= i) {
      i = j + 1;
      continue;
    }
    let s = i;
    while (s > from && isKindAt(units, s - 1, B64 | PAD)) s--;
    let e = i + B64_MIN;
    while (isKindAt(units, e, B64 | PAD)) e++;
    let digits = s;
    while (digits < e && isKindAt(units, digits, B64)) digits++;
    let pads = digits;
    while (pads < e && units[pads] === 61 /* = */) pads++;
    if (digits - s >= B64_MIN && digits - s <= B64_MAX && pads === e && e - digits <= 2) return [s, e];
    i = e + 1;
  }
  return null;
}

/**
 * Where the hex regex's match starting at p ends, or -1. Greedily it takes as many hex pairs (each with the
 * ':' or ' ' after it) as there are, up to the cap, then backs off to the last end not followed by a hex
 * digit: the latest group first, its separator before none.
 */
function hexMatchEnd(units: Uint16Array, p: number): number {
  let best = -1;
  let i = p;
  for (let groups = 1; groups <= HEX_MAX_GROUPS && isHexAt(units, i) && isHexAt(units, i + 1); groups++) {
    i += 2;
    const bare = i;
    const withSep = isKindAt(units, i, SEP);
    if (withSep) i++;
    if (groups >= HEX_MIN_GROUPS) {
      if (withSep && !isHexAt(units, i)) best = i;
      else if (!isHexAt(units, bare)) best = bare;
    }
  }
  return best;
}

/**
 * The next hex payload starting at or after `from`, as [start, end). Matches lie in runs of [0-9a-fA-F :] of
 * at least 32 characters; those are found with windows read from their end, and the regex is simulated at
 * each start of a hex run in them.
 */
function nextHex(units: Uint16Array, from: number): [number, number] | null {
  const n = units.length;
  const minLength = 2 * HEX_MIN_GROUPS;
  let i = from;
  while (i + minLength <= n) {
    const j = lastNotOfKind(units, i, minLength, HEX | SEP);
    if (j >= i) {
      i = j + 1;
      continue;
    }
    let s = i;
    while (s > from && isKindAt(units, s - 1, HEX | SEP)) s--;
    let e = i + minLength;
    while (isKindAt(units, e, HEX | SEP)) e++;
    for (let p = s; p + minLength <= e; p++) {
      if (!isHexAt(units, p) || (p > 0 && isHexAt(units, p - 1))) continue;
      const end = hexMatchEnd(units, p);
      if (end >= 0) return [p, end];
    }
    i = e + 1;
  }
  return null;
}
const MAX_DECODED = 16384;
const MAX_PAYLOADS = 16;

function printableRatio(s: string): number {
  if (s.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9 || (c >= 160 && c !== 0xfffd)) ok++;
  }
  return ok / s.length;
}

/**
 * Do the bytes hold so many ASCII control characters that their UTF-8 text cannot be 95 % printable
 * (printableRatio)? Each such byte decodes to itself, one unprintable character, and the text has at most
 * as many characters as there are bytes: more than one in 20 rules the text out without decoding it, as
 * it does most random key material (about one byte in nine).
 */
function controlBytesRuleOut(bytes: Buffer): boolean {
  let control = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b < 32 && b !== 9 && b !== 10 && b !== 13) || b === 127) control++;
  }
  return 20 * control > bytes.length;
}

interface Layer {
  text: string;
  /** where the layer's text comes from in the original (for finding spans) */
  start: number;
  end: number;
  kind: 'plain' | 'tags' | 'zero_width' | 'base64' | 'hex';
}

/** Which kinds of hidden characters a text may hold (none where its literal search saw none). */
interface Hidden {
  tags: boolean;
  zeroWidth: boolean;
}

function decodeLayers(text: string, hidden: Hidden): { layers: Layer[]; obfuscation: Finding[] } {
  const layers: Layer[] = [];
  const obfuscation: Finding[] = [];
  let budget = MAX_DECODED;
  // Unicode tag characters: decode to ASCII
  TAG_RE.lastIndex = 0;
  for (let m = hidden.tags ? TAG_RE.exec(text) : null; m; m = TAG_RE.exec(text)) {
    let decoded = '';
    for (let i = 1; i < m[0].length; i += 2) decoded += String.fromCharCode(m[0].charCodeAt(i) - 0xdc00);
    if (decoded.length >= 3) {
      obfuscation.push({ type: INJECTION_TYPE, start: m.index, end: m.index + m[0].length, score: 0.85 });
      if (budget > 0) {
        layers.push({ text: decoded.slice(0, budget), start: m.index, end: m.index + m[0].length, kind: 'tags' });
        budget -= decoded.length;
      }
    }
  }
  // zero-width characters inside text: strip and rescan
  const units = codeUnits(text);
  let zw = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; hidden.zeroWidth && i < units.length; i++) {
    if (KIND[units[i]!] !== ZW) continue;
    zw++;
    if (first < 0) first = i;
    last = i + 1;
  }
  if (zw > 0) {
    layers.push({ text: text.replace(ZERO_WIDTH_RE, ''), start: first, end: last, kind: 'zero_width' });
    if (zw >= 8) obfuscation.push({ type: INJECTION_TYPE, start: first, end: last, score: 0.35 });
  }
  let payloads = 0;
  for (let m = nextBase64(units, 0); m && payloads < MAX_PAYLOADS && budget > 0; m = nextBase64(units, m[1])) {
    const v = text.slice(m[0], m[1]);
    if (!/[a-z]/.test(v) || !/[A-Z]/.test(v)) continue;
    const bytes = Buffer.from(v.slice(0, Math.min(v.length, budget * 2)), 'base64');
    if (controlBytesRuleOut(bytes)) continue;
    const decoded = bytes.toString('utf8');
    if (decoded.length < 12 || printableRatio(decoded) < 0.95 || !/\s/.test(decoded)) continue;
    payloads++;
    budget -= decoded.length;
    layers.push({ text: decoded, start: m[0], end: m[1], kind: 'base64' });
  }
  for (let m = nextHex(units, 0); m && payloads < MAX_PAYLOADS && budget > 0; m = nextHex(units, m[1])) {
    const hex = text.slice(m[0], m[1]).replace(/[ :]/g, '');
    const decoded = Buffer.from(hex.slice(0, budget * 2), 'hex').toString('utf8');
    if (decoded.length < 12 || printableRatio(decoded) < 0.95 || !/\s/.test(decoded)) continue;
    payloads++;
    budget -= decoded.length;
    layers.push({ text: decoded, start: m[0], end: m[1], kind: 'hex' });
  }
  return { layers, obfuscation };
}

// ---------------------------------------------------------------- scoring

export interface InjectionOptions {
  field?: ContentField;
  threshold?: number;
  /** The learned model to combine with the cues: the shipped one when absent, none (cues alone) when null. */
  model?: InjectionModel | null;
}

const MAX_SCAN = 200_000;

/** The learned model (src/detect/injection/model/), if its files are present and match the featuriser. */
const MODEL = loadModel();

function combine(weights: number[]): number {
  let p = 1;
  for (const w of weights) p *= 1 - w;
  return 1 - p;
}

function cuesIn(
  layer: string,
  dataLike: boolean,
  live: readonly Cue[],
): { id: string; key: string; weight: number; index: number; length: number }[] {
  const hits: { id: string; key: string; weight: number; index: number; length: number }[] = [];
  for (const c of live) {
    if (c.data && !dataLike) continue;
    const m = c.re.exec(layer);
    if (m) hits.push({ id: c.id, key: c.group ?? c.id, weight: c.weight, index: m.index, length: m[0].length });
  }
  return hits;
}

/** Opening quote marks and the closing marks that end them. */
const QUOTE_PAIRS: Record<string, string> = {
  "'": "'",
  '"': '"',
  '«': '»',
  '“': '”',
  '„': '“',
  '‘': '’',
  '「': '」',
  '『': '』',
  '‚': '‘',
};
/** Weight kept by a cue that is quoted in a sentence about it ("why does 'ignore previous instructions' work?"). */
const MENTION_FACTOR = 0.4;

/**
 * Is the cue at [start, end) a quotation — an opening quote right before it (spaces aside) and its
 * closing quote soon after it, followed by more text of the same sentence or a question? A text that
 * talks about an attack quotes its words; an attack gives them. Bounded: looks at most 3 chars back
 * and 80 ahead.
 */
function quotedMention(text: string, start: number, end: number): boolean {
  let i = start - 1;
  while (i >= 0 && i >= start - 3 && text[i] === ' ') i--;
  const open = i >= 0 ? text[i]! : '';
  const close = QUOTE_PAIRS[open];
  if (close === undefined) return false;
  // an opening ' or " must not be glued to a word before it (an apostrophe: don't)
  if ((open === "'" || open === '"') && i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1]!)) return false;
  const stop = Math.min(text.length, end + 80);
  const j = text.indexOf(close, end);
  if (j < 0 || j >= stop) return false;
  // something follows in the sentence (not the end of the text): the quote is part of a statement about it
  const rest = text.slice(j + 1, j + 40).trimStart();
  return rest.length > 0;
}

/** The English override cues, whose verb a description puts after the model it acts on. */
const OVERRIDE_IDS = new Set(['override', 'override_weak', 'override_above']);
/** "… instructing it to", "makes the model", "causing LLMs to": the words before a described override. */
const DESCRIBED_BEFORE =
  /\b(?:it|them|the (?:model|llm|ai|chatbot|assistant|bot|agent|system)|(?:an? )?(?:llms?|models?|chatbots?|assistants?|agents?))\s+(?:to\s+)?$/i;

/** "attackers claim (that) the …", "tricks it into believing all …": the words before a reported claim. */
const REPORTED_BEFORE =
  /\b(?:claim(?:s|ed|ing)?|pretend(?:s|ed|ing)?|convinc(?:e|es|ed|ing)|believ(?:e|es|ed|ing)|assert(?:s|ed|ing)?|stat(?:e|es|ed|ing)|say(?:s|ing)?|said|tell(?:s|ing)?|told)\s+(?:(?:that|it|them|the model|the llm)\s+){0,2}(?:(?:its|the|all|their)\s+)?$/i;

/**
 * Is the claim at `start` reported rather than made ("attackers claim the safety filters are disabled")?
 * Bounded: looks at most 40 chars back.
 */
function reportedClaim(text: string, start: number): boolean {
  return REPORTED_BEFORE.test(text.slice(Math.max(0, start - 40), start));
}

/**
 * Is the override verb at `start` described rather than given — said of the model it acts on ("an attack
 * instructing it to ignore previous guidelines", "prompts that make the model ignore previous
 * instructions")? An attack speaks to the model ("ignore …", "you must ignore …"); a text about attacks
 * names the model. Measured on the security write-ups of datasets/detect/injection/ (their English
 * override false positives). Bounded: looks at most 40 chars back.
 */
function describedOverride(text: string, start: number): boolean {
  return DESCRIBED_BEFORE.test(text.slice(Math.max(0, start - 40), start));
}

/**
 * Scores a text for prompt injection. Long texts are scanned in bounded, overlapping windows so that
 * every cue regex sees at most WINDOW characters at a time.
 */
export function detectInjection(text: string, opts: InjectionOptions = {}): InjectionResult {
  const threshold = opts.threshold ?? 0.5;
  const field = opts.field;
  const src = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  const dataField = field === 'context' || field === 'tool_output';
  const dataLike = dataField || DATA_MARKERS.test(src.slice(0, 4096));
  const plainLiterals = LITERALS.firstEnds(src);
  const persona =
    PERSONA_GATE.some((w) => plainLiterals[w]! > 0 && plainLiterals[w]! <= 4096) &&
    PERSONA_PROMPT.test(src.slice(0, 4096));
  const hidden = {
    tags: plainLiterals[TAG_LEAD_INDEX]! > 0,
    zeroWidth: ZERO_WIDTH_GATE.some((w) => plainLiterals[w]! > 0),
  };
  const { layers, obfuscation } = decodeLayers(src, hidden);

  const byId = new Map<string, { weight: number; f: Finding }>();
  const scanLayer = (layer: Layer, literalEnds: Int32Array) => {
    const live = liveCues(literalEnds);
    if (live.length === 0) return;
    const WINDOW = 4096;
    const STEP = 3584;
    for (let off = 0; off < layer.text.length; off += STEP) {
      const chunk = layer.text.slice(off, off + WINDOW);
      for (const h of cuesIn(chunk, dataLike, live)) {
        let weight = h.weight;
        if (h.id === 'your_response' || h.id === 'if_user_asks') {
          if (dataLike) weight += 0.25;
          if (persona) weight -= 0.35;
        }
        if (layer.kind !== 'plain') weight = Math.min(0.95, weight + 0.2);
        else if (
          quotedMention(layer.text, off + h.index, off + h.index + h.length) ||
          (OVERRIDE_IDS.has(h.id) && describedOverride(layer.text, off + h.index)) ||
          (h.id === 'safeguards_off' && reportedClaim(layer.text, off + h.index))
        )
          weight *= MENTION_FACTOR;
        const f: Finding =
          layer.kind === 'plain'
            ? { type: INJECTION_TYPE, start: off + h.index, end: off + h.index + h.length, score: weight }
            : { type: INJECTION_TYPE, start: layer.start, end: layer.end, score: weight };
        const prev = byId.get(h.key);
        if (!prev || prev.weight < weight) byId.set(h.key, { weight, f });
      }
      if (off + WINDOW >= layer.text.length) break;
    }
  };
  scanLayer({ text: src, start: 0, end: src.length, kind: 'plain' }, plainLiterals);
  for (const l of layers) scanLayer(l, LITERALS.firstEnds(l.text));

  const weights = [...byId.values()].map((v) => v.weight).filter((w) => w > 0);
  for (const o of obfuscation) weights.push(o.score);
  const ruleScore = combine(weights);
  // the learned model, on the same (capped) text; its probability is put on the cues' scale, where 0.5
  // is the decision point: the model's own threshold maps to 0.5
  const model = opts.model === undefined ? MODEL : (opts.model ?? undefined);
  const mv = model ? modelVerdict(model, src) : undefined;
  const modelScale =
    mv && model
      ? mv.p >= model.threshold
        ? 0.5 + (0.5 * (mv.p - model.threshold)) / (1 - model.threshold)
        : (0.5 * mv.p) / model.threshold
      : 0;
  const score = Math.max(ruleScore, modelScale);
  const detected = score >= threshold;
  const findings = detected
    ? [...[...byId.values()].map((v) => ({ ...v.f, score: Math.round(v.weight * 100) / 100 })), ...obfuscation]
    : [];
  if (detected && mv && modelScale >= threshold && mv.end > mv.start)
    findings.push({ type: INJECTION_TYPE, start: mv.start, end: mv.end, score: Math.round(modelScale * 100) / 100 });
  findings.sort((a, b) => a.start - b.start);
  return { detected, score: Math.round(score * 1000) / 1000, findings };
}
