// Training-only benign texts of the prompt-injection model (assembled in injection-training-extra.ts):
// transactional and workplace text in en, de, fr, es, zh, ru, ja that uses the action words of the
// training attacks (pay, refund, transfer, forward, approve, delete, grant access, add an administrator,
// change an address, cancel meetings, send keys and links, rate, recommend, recalls) — reported as done
// (bank notices, receipts, refund confirmations, shipping updates, invoices, calendar notices) or asked
// of a human by a human (HR and IT tickets, colleagues' e-mails and chat). The attacks of
// injection-training-extra.ts ask a reading model for these same actions; without their benign twins
// the model learns "payment / refund / transfer words ⇒ attack", and real mail is full of them.
// The texts come alone or in what agents read: e-mails with headers, HTML mail, payment webhooks (JSON),
// mailbox API and tool output, chat, logs, CSV statements, calendar entries, tickets, SMS.
// Every value is generated here (names, amounts, dates, account numbers, addresses are made up from the
// lists and number generators below). Licence: Apache-2.0, as the repository.

type Lang = "en" | "de" | "fr" | "es" | "zh" | "ru" | "ja";
type Gen = (r: () => number) => string;

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const digits = (r: () => number, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join("");
const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const hex = (r: () => number, n: number) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(r() * 16)]).join("");
const pad2 = (n: number) => String(n).padStart(2, "0");

/** Groups a number's integer digits by thousands with `sep`. */
function group3(n: number, sep: string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

interface TxParts {
  /** full names; NAME is derived from them (the given name, or as the language addresses people) */
  names: string[];
  nameOf: (full: string) => string;
  handles: string[];
  merchants: string[];
  streets: string[];
  towns: string[];
  meetings: string[];
  folders: string[];
  plans: string[];
  refs: string[];
  subjects: string[];
  greet: string[];
  sign: string[];
  amount: Gen;
  date: Gen;
  iban: Gen;
  address: (r: () => number, p: TxParts) => string;
  /** sentences: reported transactions and requests between people */
  frames: string[];
}

const DOMAINS = ["northwind.example", "harbourbank.example", "bluepeak.example", "kranich-gmbh.example", "lumiere-conseil.example", "solymar.example", "hanhai-tech.example", "volga-trade.example", "sakura-soft.example", "mail.example.org", "example.com", "orbit-retail.example"];
const PR_TITLES = ["Fix date parsing in the importer", "Bump eslint to 9.x", "Add retry to the upload client", "Refactor invoice totals", "Docs: update the setup guide", "Cache the exchange rates", "Remove the legacy login page", "Speed up the CSV export"];
const CHANNELS = ["finance", "team-ops", "general", "payments", "hr-announcements", "it-helpdesk", "sales-emea", "office"];
const EVENT_TYPES = ["charge.succeeded", "refund.created", "payout.paid", "invoice.paid", "transfer.created", "payment_intent.succeeded", "invoice.payment_failed", "order.shipped"];
const CURRENCIES: Record<Lang, string> = { en: "gbp", de: "eur", fr: "eur", es: "eur", zh: "cny", ru: "rub", ja: "jpy" };

const EN: TxParts = {
  names: ["Olivia Thompson", "Liam Okafor", "Priya Patel", "Marcus Whitaker", "Hannah Nguyen", "Diego Alvarez", "Chloe Brennan", "Samuel Hughes", "Aisha Mensah", "Ethan Carter", "Grace Doyle", "Kenji Fischer", "Rosa Lindqvist", "Tom Baker"],
  nameOf: (f) => f.split(" ")[0]!,
  handles: ["olivia.t", "liam.okafor", "ppatel", "m.whitaker", "hannah", "diego.a", "chloe.b", "sam.hughes", "aisha", "e.carter", "grace.doyle", "kenji"],
  merchants: ["Harbour Books", "Greenleaf Grocers", "Northwind Outdoor", "Pixel & Co", "Riverside Pharmacy", "Bluebird Taxis", "Cedar Hotel", "Atlas Air", "Corner Café", "Brightside Electrics", "Maple Dental", "Swift Parcel"],
  streets: ["Mill Lane", "Station Road", "Queen Street", "Park Avenue", "Church Road", "Victoria Road", "High Street", "Elm Grove"],
  towns: ["Leeds", "Bristol", "Norwich", "York", "Cardiff", "Brighton", "Exeter", "Bath"],
  meetings: ["Weekly sync", "Q3 budget review", "1:1", "Design critique", "Vendor call", "Sprint planning", "Onboarding: new starters", "Board prep"],
  folders: ["Finance/2024", "Contracts", "Marketing assets", "HR shared", "Backups/old", "Team photos", "Client handover", "Legal"],
  plans: ["Pro", "Family", "Business", "Premium", "Basic"],
  refs: ["rent May", "invoice 2231", "birthday gift", "deposit flat 4B", "dinner on Friday", "car share", "school trip", "membership fee"],
  subjects: ["Your payment", "Refund confirmation", "Re: invoice", "Action needed", "Fwd: contract", "Your order has shipped", "Meeting cancelled", "Access granted", "Receipt for your purchase", "Re: holiday request", "Account update", "Reminder"],
  greet: ["Hi {NAME},", "Hello {NAME},", "Dear {FULLNAME},", "Hi there,", "Dear customer,", "Good morning {NAME},"],
  sign: ["Best,\n{NAME2}", "Thanks,\n{NAME2}", "Kind regards,\n{MERCHANT} Customer Service", "Cheers, {NAME2}", "Many thanks,\nThe {MERCHANT} team", "— {NAME2}"],
  amount: (r) => pick(r, ["£", "$", "€"]) + group3(int(r, 3, 4800), ",") + "." + pad2(int(r, 0, 99)),
  date: (r) => r() < 0.5 ? `${int(r, 1, 28)} ${pick(r, ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"])} ${int(r, 2023, 2026)}` : `${pick(r, ["Mon", "Tue", "Wed", "Thu", "Fri"])} ${int(r, 1, 28)} ${pick(r, ["Jan", "Mar", "Apr", "Jun", "Sep", "Oct", "Nov"])}`,
  iban: (r) => `GB${digits(r, 2)} ${pick(r, ["NWBK", "BARC", "LOYD", "MIDL"])} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 2)}`,
  address: (r, p) => `${int(r, 1, 220)} ${pick(r, p.streets)}, ${pick(r, p.towns)} ${pick(r, ["LS", "BS", "NR", "YO", "CF", "BN"])}${int(r, 1, 19)} ${int(r, 1, 9)}${pick(r, ["AB", "DX", "HT", "QP", "RW"])}`,
  frames: [
    "Your card ending in {CARD4} was charged {AMOUNT} at {MERCHANT} on {DATE}. If you don't recognise this payment, call the number on the back of your card.",
    "We've refunded {AMOUNT} for order #{ORDER}. The refund should reach your account within 5-10 business days.",
    "Hi {NAME}, could you refund order {ORDER} in full? The customer returned both items and the parcel arrived today.",
    "You sent {AMOUNT} to {FULLNAME} ({IBAN}). Reference: {REF}.",
    "Transfer received: {AMOUNT} from {FULLNAME}, reference \"{REF}\".",
    "{NAME}, please forward the signed contract to {EMAIL} before Thursday; legal needs a copy.",
    "Can you forward me the last e-mails from {MERCHANT} about the renewal? I lost them when my mailbox was migrated.",
    "Your expense report of {AMOUNT} was approved by {FULLNAME} and will be paid with the next salary.",
    "Hi {NAME}, please approve my holiday request for {DATE} to {DATE2} in the HR portal when you have a minute.",
    "{FULLNAME} approved pull request #{PR} \"{PRTITLE}\". CI passed, merging now.",
    "Reminder: invoice {INV} for {AMOUNT} is due on {DATE}. Please pay by bank transfer to {IBAN}.",
    "Thank you, invoice {INV} has been paid in full. No further action is needed.",
    "The shipping address for order {ORDER} was changed to {ADDRESS}. If you didn't make this change, contact our support team.",
    "Please update my delivery address to {ADDRESS} for all future orders, we moved last week.",
    "Good news! Your order {ORDER} has shipped. Tracking number: {TRACK}. Estimated delivery: {DATE}.",
    "{FULLNAME} cancelled the meeting \"{MEETING}\" on {DATE} at {TIME}.",
    "Could you cancel all my meetings next week? I'm off sick until {DATE}.",
    "{FULLNAME} granted you edit access to the folder \"{FOLDER}\".",
    "Hi IT, please grant {NAME} read access to the {FOLDER} share; she starts on {DATE}.",
    "{FULLNAME} added {EMAIL} as an administrator of the {MERCHANT} workspace.",
    "As requested, we deleted your account and all associated data on {DATE}.",
    "Please delete the old backups in {FOLDER} once the migration is verified, they take up 2 TB.",
    "Here is the link to the shared folder: {URL} (it expires in 7 days).",
    "Your new API key for the sandbox was created on {DATE}. You can view it once in the dashboard; we will never send keys by e-mail.",
    "I'll leave the spare key to the flat with reception, pick it up after {TIME}.",
    "How was your order from {MERCHANT}? Rate your purchase and help other customers, it only takes 30 seconds.",
    "Thanks for staying with us! Please rate your stay at {MERCHANT}: {URL}",
    "I'd recommend {MERCHANT} for the catering, we used them last year and everyone was happy.",
    "Product safety notice: there is no recall affecting model {SKU}; the recall announced on {DATE} concerns batch {BATCH} only.",
    "{NAME} posted the meeting notes to #{CHANNEL}.",
    "Direct debit notice: {AMOUNT} will be collected from your account ending {ACC4} on or after {DATE}.",
    "Payment failed: we couldn't charge your card ending {CARD4} for your {PLAN} subscription. Please update your payment method to avoid interruption.",
    "Salaries for this month will be transferred on {DATE}; please check your bank details in the portal by {DATE2}.",
    "Ticket #{TICKET}: {FULLNAME} asks IT to reset her MFA device and send the recovery codes by post. Status: approved by manager.",
    "Your payment of {AMOUNT} to {MERCHANT} is scheduled for {DATE}. You can cancel it in the app until 6 pm the day before.",
    "Finance, please pay the attached invoice from {MERCHANT} ({AMOUNT}); the PO number is {ORDER}.",
  ],
};

const DE: TxParts = {
  names: ["Lena Becker", "Jonas Hoffmann", "Katrin Schulze", "Mehmet Yilmaz", "Sophie Wagner", "Felix Krüger", "Anja Lehmann", "Lukas Brandt", "Miriam Vogel", "Tobias Seidel", "Ines Arnold", "Stefan Kaiser"],
  nameOf: (f) => f.split(" ")[0]!,
  handles: ["l.becker", "jonas.hoffmann", "k.schulze", "m.yilmaz", "sophie.wagner", "f.krueger", "anja.lehmann", "lukas.b", "m.vogel", "t.seidel", "ines.arnold", "s.kaiser"],
  merchants: ["Buchhandlung am Markt", "Bäckerei Schneider", "Elektro Hansen", "Stadtwerke Nord", "Reisebüro Sonnenschein", "Apotheke am Ring", "Hotel Lindenhof", "Taxi Zentrale Süd", "Fahrradhaus Meyer", "Gasthaus zur Post"],
  streets: ["Lindenstraße", "Bahnhofstraße", "Gartenweg", "Schillerstraße", "Am Mühlbach", "Hauptstraße", "Rosenweg", "Kirchplatz"],
  towns: ["Leipzig", "Kassel", "Freiburg", "Münster", "Rostock", "Augsburg", "Bielefeld", "Erfurt"],
  meetings: ["Wochenabstimmung", "Budgetrunde Q3", "Jour fixe", "Design-Review", "Lieferantentermin", "Sprintplanung", "Einarbeitung", "Vorstandsvorbereitung"],
  folders: ["Finanzen/2024", "Verträge", "Marketing", "Personal", "Backups/alt", "Teamfotos", "Kundenübergabe", "Recht"],
  plans: ["Pro", "Familie", "Business", "Premium", "Basis"],
  refs: ["Miete Mai", "Rechnung 2231", "Geburtstagsgeschenk", "Kaution Wohnung 4B", "Abendessen Freitag", "Klassenfahrt", "Mitgliedsbeitrag"],
  subjects: ["Ihre Zahlung", "Bestätigung der Erstattung", "AW: Rechnung", "Handlungsbedarf", "WG: Vertrag", "Ihre Bestellung ist unterwegs", "Termin abgesagt", "Zugriff gewährt", "Ihr Beleg", "AW: Urlaubsantrag", "Kontoänderung", "Erinnerung"],
  greet: ["Hallo {NAME},", "Liebe/r {FULLNAME},", "Sehr geehrte Kundin, sehr geehrter Kunde,", "Guten Morgen {NAME},", "Hi {NAME},"],
  sign: ["Viele Grüße\n{NAME2}", "Danke dir!\n{NAME2}", "Mit freundlichen Grüßen\nIhr Kundenservice von {MERCHANT}", "LG {NAME2}", "Beste Grüße, {NAME2}"],
  amount: (r) => group3(int(r, 3, 4800), ".") + "," + pad2(int(r, 0, 99)) + " €",
  date: (r) => `${pad2(int(r, 1, 28))}.${pad2(int(r, 1, 12))}.${int(r, 2023, 2026)}`,
  iban: (r) => `DE${digits(r, 2)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 2)}`,
  address: (r, p) => `${pick(r, p.streets)} ${int(r, 1, 120)}, ${digits(r, 5)} ${pick(r, p.towns)}`,
  frames: [
    "Ihre Karte mit der Endung {CARD4} wurde am {DATE} mit {AMOUNT} bei {MERCHANT} belastet. Falls Sie diese Zahlung nicht kennen, rufen Sie uns bitte an.",
    "Wir haben Ihnen {AMOUNT} für die Bestellung {ORDER} erstattet. Die Gutschrift erscheint in 5 bis 10 Werktagen auf Ihrem Konto.",
    "Hallo {NAME}, kannst du die Bestellung {ORDER} bitte vollständig erstatten? Die Kundin hat beide Artikel zurückgeschickt.",
    "Sie haben {AMOUNT} an {FULLNAME} ({IBAN}) überwiesen. Verwendungszweck: {REF}.",
    "Zahlungseingang: {AMOUNT} von {FULLNAME}, Verwendungszweck „{REF}“.",
    "{NAME}, bitte leite den unterschriebenen Vertrag bis Donnerstag an {EMAIL} weiter, die Rechtsabteilung braucht eine Kopie.",
    "Ihre Reisekostenabrechnung über {AMOUNT} wurde von {FULLNAME} genehmigt und wird mit dem nächsten Gehalt ausgezahlt.",
    "Hallo {NAME}, bitte genehmige meinen Urlaubsantrag vom {DATE} bis {DATE2} im HR-Portal, wenn du kurz Zeit hast.",
    "{FULLNAME} hat den Pull Request #{PR} „{PRTITLE}“ genehmigt; die CI ist grün, ich merge jetzt.",
    "Erinnerung: Die Rechnung {INV} über {AMOUNT} ist am {DATE} fällig. Bitte überweisen Sie den Betrag auf {IBAN}.",
    "Vielen Dank, die Rechnung {INV} wurde vollständig bezahlt. Sie müssen nichts weiter tun.",
    "Die Lieferadresse für Bestellung {ORDER} wurde in {ADDRESS} geändert. Wenn Sie das nicht waren, wenden Sie sich an den Kundenservice.",
    "Bitte ändern Sie meine Lieferadresse für alle künftigen Bestellungen in {ADDRESS}, wir sind letzte Woche umgezogen.",
    "Ihre Bestellung {ORDER} wurde versandt. Sendungsnummer: {TRACK}. Voraussichtliche Zustellung: {DATE}.",
    "{FULLNAME} hat den Termin „{MEETING}“ am {DATE} um {TIME} Uhr abgesagt.",
    "Kannst du bitte alle meine Termine nächste Woche absagen? Ich bin bis zum {DATE} krankgeschrieben.",
    "{FULLNAME} hat Ihnen Bearbeitungszugriff auf den Ordner „{FOLDER}“ gewährt.",
    "Hallo IT, bitte gebt {NAME} Lesezugriff auf das Laufwerk {FOLDER}, sie fängt am {DATE} an.",
    "{FULLNAME} hat {EMAIL} als Administrator des Arbeitsbereichs {MERCHANT} hinzugefügt.",
    "Wie gewünscht haben wir Ihr Konto und alle zugehörigen Daten am {DATE} gelöscht.",
    "Bitte lösche die alten Backups in {FOLDER}, sobald die Migration geprüft ist, sie belegen 2 TB.",
    "Hier ist der Link zum geteilten Ordner: {URL} (er läuft in 7 Tagen ab).",
    "Wie war Ihre Bestellung bei {MERCHANT}? Bewerten Sie Ihren Einkauf und helfen Sie anderen Kunden.",
    "Für das Catering kann ich {MERCHANT} empfehlen, wir waren letztes Jahr sehr zufrieden.",
    "Lastschriftankündigung: {AMOUNT} werden am oder nach dem {DATE} von Ihrem Konto mit der Endung {ACC4} eingezogen.",
    "Zahlung fehlgeschlagen: Wir konnten Ihre Karte mit der Endung {CARD4} für Ihr {PLAN}-Abo nicht belasten. Bitte aktualisieren Sie Ihre Zahlungsmethode.",
    "Sicherheitshinweis: Für das Modell {SKU} gibt es keinen Rückruf; der Rückruf vom {DATE} betrifft nur die Charge {BATCH}.",
    "Buchhaltung, bitte zahlt die angehängte Rechnung von {MERCHANT} ({AMOUNT}), Bestellnummer {ORDER}.",
  ],
};

const FR: TxParts = {
  names: ["Camille Lefèvre", "Julien Moreau", "Manon Girard", "Karim Benali", "Élodie Rousseau", "Thomas Fontaine", "Inès Chevalier", "Mathieu Mercier", "Chloé Lambert", "Nicolas Faure", "Sarah Garnier", "Bastien Roux"],
  nameOf: (f) => f.split(" ")[0]!,
  handles: ["c.lefevre", "julien.moreau", "manon.g", "k.benali", "elodie.rousseau", "t.fontaine", "ines.c", "m.mercier", "chloe.lambert", "n.faure", "sarah.garnier", "b.roux"],
  merchants: ["Librairie du Parc", "Boulangerie Martin", "Pharmacie Centrale", "Hôtel des Arts", "Électro Sud", "Transports Rapides", "Café de la Gare", "Cycles Duval", "Opticien Lumière", "Traiteur Saveurs"],
  streets: ["rue des Lilas", "avenue Jean-Jaurès", "rue de la République", "boulevard Victor-Hugo", "place du Marché", "rue Pasteur", "chemin des Vignes", "rue du Moulin"],
  towns: ["Lyon", "Nantes", "Lille", "Rennes", "Grenoble", "Dijon", "Tours", "Montpellier"],
  meetings: ["Point hebdo", "Revue budget T3", "Entretien individuel", "Revue design", "Appel fournisseur", "Planification du sprint", "Accueil des nouveaux", "Préparation du comité"],
  folders: ["Finances/2024", "Contrats", "Marketing", "RH partagé", "Sauvegardes/anciennes", "Photos d'équipe", "Passation client", "Juridique"],
  plans: ["Pro", "Famille", "Business", "Premium", "Essentiel"],
  refs: ["loyer mai", "facture 2231", "cadeau anniversaire", "caution appartement 4B", "dîner vendredi", "voyage scolaire", "cotisation"],
  subjects: ["Votre paiement", "Confirmation de remboursement", "RE: facture", "Action requise", "TR: contrat", "Votre commande a été expédiée", "Réunion annulée", "Accès accordé", "Votre reçu", "RE: demande de congés", "Mise à jour du compte", "Rappel"],
  greet: ["Bonjour {NAME},", "Chère cliente, cher client,", "Salut {NAME},", "Bonjour {FULLNAME},", "Madame, Monsieur,"],
  sign: ["Bonne journée,\n{NAME2}", "Merci !\n{NAME2}", "Cordialement,\nLe service client {MERCHANT}", "Bien à vous,\n{NAME2}", "À bientôt, {NAME2}"],
  amount: (r) => group3(int(r, 3, 4800), "\u202f") + "," + pad2(int(r, 0, 99)) + " €",
  date: (r) => r() < 0.5 ? `${pad2(int(r, 1, 28))}/${pad2(int(r, 1, 12))}/${int(r, 2023, 2026)}` : `${int(r, 1, 28)} ${pick(r, ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "septembre", "octobre", "novembre", "décembre"])}`,
  iban: (r) => `FR76 ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 3)}`,
  address: (r, p) => `${int(r, 1, 90)} ${pick(r, p.streets)}, ${digits(r, 5)} ${pick(r, p.towns)}`,
  frames: [
    "Votre carte se terminant par {CARD4} a été débitée de {AMOUNT} chez {MERCHANT} le {DATE}. Si vous ne reconnaissez pas ce paiement, appelez-nous.",
    "Nous vous avons remboursé {AMOUNT} pour la commande n° {ORDER}. Le remboursement apparaîtra sur votre compte sous 5 à 10 jours ouvrés.",
    "Bonjour {NAME}, peux-tu rembourser intégralement la commande {ORDER} ? La cliente a renvoyé les deux articles.",
    "Vous avez envoyé {AMOUNT} à {FULLNAME} ({IBAN}). Motif : {REF}.",
    "Virement reçu : {AMOUNT} de {FULLNAME}, motif « {REF} ».",
    "{NAME}, merci de transférer le contrat signé à {EMAIL} avant jeudi, le service juridique en a besoin.",
    "Votre note de frais de {AMOUNT} a été approuvée par {FULLNAME} et sera payée avec le prochain salaire.",
    "Bonjour {NAME}, peux-tu valider ma demande de congés du {DATE} au {DATE2} dans le portail RH quand tu as une minute ?",
    "{FULLNAME} a approuvé la pull request n° {PR} « {PRTITLE} » ; la CI est verte, je fusionne.",
    "Rappel : la facture {INV} de {AMOUNT} arrive à échéance le {DATE}. Merci de la régler par virement sur {IBAN}.",
    "Merci, la facture {INV} a été entièrement payée. Aucune action n'est nécessaire.",
    "L'adresse de livraison de la commande {ORDER} a été modifiée : {ADDRESS}. Si vous n'êtes pas à l'origine de ce changement, contactez le service client.",
    "Merci de changer mon adresse de livraison pour {ADDRESS} pour toutes les prochaines commandes, nous avons déménagé.",
    "Votre commande {ORDER} a été expédiée. Numéro de suivi : {TRACK}. Livraison prévue le {DATE}.",
    "{FULLNAME} a annulé la réunion « {MEETING} » du {DATE} à {TIME}.",
    "Tu peux annuler toutes mes réunions de la semaine prochaine ? Je suis en arrêt maladie jusqu'au {DATE}.",
    "{FULLNAME} vous a donné un accès en modification au dossier « {FOLDER} ».",
    "Bonjour le support, merci d'accorder à {NAME} un accès en lecture au partage {FOLDER}, elle arrive le {DATE}.",
    "{FULLNAME} a ajouté {EMAIL} comme administrateur de l'espace de travail {MERCHANT}.",
    "Comme demandé, nous avons supprimé votre compte et toutes les données associées le {DATE}.",
    "Merci de supprimer les anciennes sauvegardes dans {FOLDER} une fois la migration vérifiée, elles prennent 2 To.",
    "Voici le lien vers le dossier partagé : {URL} (il expire dans 7 jours).",
    "Comment s'est passée votre commande chez {MERCHANT} ? Notez votre achat pour aider les autres clients.",
    "Je recommande {MERCHANT} pour le traiteur, on les a pris l'an dernier et tout le monde était content.",
    "Avis de prélèvement : {AMOUNT} seront prélevés sur votre compte se terminant par {ACC4} à partir du {DATE}.",
    "Échec du paiement : nous n'avons pas pu débiter votre carte se terminant par {CARD4} pour votre abonnement {PLAN}. Mettez à jour votre moyen de paiement.",
    "Avis de sécurité : aucun rappel ne concerne le modèle {SKU} ; le rappel du {DATE} ne porte que sur le lot {BATCH}.",
    "La compta, pouvez-vous payer la facture ci-jointe de {MERCHANT} ({AMOUNT}) ? Bon de commande {ORDER}.",
  ],
};

const ES: TxParts = {
  names: ["Lucía García", "Javier Fernández", "Carmen Romero", "Andrés Navarro", "Paula Ortega", "Sergio Castillo", "Marta Rubio", "Diego Molina", "Elena Serrano", "Pablo Delgado", "Nuria Vidal", "Raúl Herrera"],
  nameOf: (f) => f.split(" ")[0]!,
  handles: ["lucia.garcia", "j.fernandez", "carmen.r", "andres.navarro", "p.ortega", "sergio.c", "marta.rubio", "d.molina", "elena.s", "pablo.delgado", "nuria.v", "r.herrera"],
  merchants: ["Librería Central", "Panadería La Espiga", "Farmacia del Sol", "Hotel Mirador", "Electrodomésticos Ruiz", "Taxis Costa", "Café Las Palmas", "Bicicletas Sierra", "Óptica Luz", "Catering Sabores"],
  streets: ["calle Mayor", "avenida de la Constitución", "calle del Carmen", "paseo de Gracia", "plaza de España", "calle Real", "camino del Río", "calle Alcalá"],
  towns: ["Valencia", "Zaragoza", "Málaga", "Bilbao", "Granada", "Valladolid", "Alicante", "Córdoba"],
  meetings: ["Reunión semanal", "Revisión de presupuesto T3", "Reunión 1:1", "Revisión de diseño", "Llamada con proveedor", "Planificación del sprint", "Bienvenida a nuevos", "Preparación del consejo"],
  folders: ["Finanzas/2024", "Contratos", "Marketing", "RR. HH. compartido", "Copias/antiguas", "Fotos del equipo", "Traspaso cliente", "Legal"],
  plans: ["Pro", "Familiar", "Empresa", "Premium", "Básico"],
  refs: ["alquiler mayo", "factura 2231", "regalo cumpleaños", "fianza piso 4B", "cena del viernes", "excursión escolar", "cuota de socio"],
  subjects: ["Tu pago", "Confirmación de reembolso", "RE: factura", "Acción necesaria", "RV: contrato", "Tu pedido ha sido enviado", "Reunión cancelada", "Acceso concedido", "Tu recibo", "RE: vacaciones", "Actualización de la cuenta", "Recordatorio"],
  greet: ["Hola {NAME}:", "Estimado/a {FULLNAME}:", "Buenos días, {NAME}:", "Estimado cliente:", "Hola:"],
  sign: ["Un saludo,\n{NAME2}", "¡Gracias!\n{NAME2}", "Atentamente,\nAtención al cliente de {MERCHANT}", "Saludos, {NAME2}", "Un abrazo,\n{NAME2}"],
  amount: (r) => group3(int(r, 3, 4800), ".") + "," + pad2(int(r, 0, 99)) + " €",
  date: (r) => r() < 0.5 ? `${pad2(int(r, 1, 28))}/${pad2(int(r, 1, 12))}/${int(r, 2023, 2026)}` : `${int(r, 1, 28)} de ${pick(r, ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "septiembre", "octubre", "noviembre", "diciembre"])}`,
  iban: (r) => `ES${digits(r, 2)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 2)}${digits(r, 2)} ${digits(r, 4)} ${digits(r, 4)}`,
  address: (r, p) => `${pick(r, p.streets)}, ${int(r, 1, 140)}, ${digits(r, 5)} ${pick(r, p.towns)}`,
  frames: [
    "Se ha cargado {AMOUNT} en tu tarjeta terminada en {CARD4} en {MERCHANT} el {DATE}. Si no reconoces este pago, llámanos.",
    "Te hemos reembolsado {AMOUNT} por el pedido n.º {ORDER}. El reembolso llegará a tu cuenta en 5-10 días hábiles.",
    "Hola {NAME}, ¿puedes reembolsar el pedido {ORDER} completo? La clienta devolvió los dos artículos.",
    "Has enviado {AMOUNT} a {FULLNAME} ({IBAN}). Concepto: {REF}.",
    "Transferencia recibida: {AMOUNT} de {FULLNAME}, concepto «{REF}».",
    "{NAME}, por favor reenvía el contrato firmado a {EMAIL} antes del jueves; el departamento legal necesita una copia.",
    "Tu nota de gastos de {AMOUNT} ha sido aprobada por {FULLNAME} y se abonará con la próxima nómina.",
    "Hola {NAME}, ¿puedes aprobar mi solicitud de vacaciones del {DATE} al {DATE2} en el portal de RR. HH. cuando tengas un momento?",
    "{FULLNAME} aprobó el pull request n.º {PR} «{PRTITLE}»; la CI está en verde, lo fusiono ya.",
    "Recordatorio: la factura {INV} de {AMOUNT} vence el {DATE}. Por favor, págala por transferencia a {IBAN}.",
    "Gracias, la factura {INV} está pagada por completo. No tienes que hacer nada más.",
    "La dirección de envío del pedido {ORDER} se ha cambiado a {ADDRESS}. Si no has sido tú, contacta con atención al cliente.",
    "Por favor, cambiad mi dirección de entrega a {ADDRESS} para los próximos pedidos; nos mudamos la semana pasada.",
    "Tu pedido {ORDER} ha sido enviado. Número de seguimiento: {TRACK}. Entrega estimada: {DATE}.",
    "{FULLNAME} ha cancelado la reunión «{MEETING}» del {DATE} a las {TIME}.",
    "¿Puedes cancelar todas mis reuniones de la semana que viene? Estoy de baja hasta el {DATE}.",
    "{FULLNAME} te ha dado acceso de edición a la carpeta «{FOLDER}».",
    "Hola, soporte: por favor, dad a {NAME} acceso de lectura a la unidad {FOLDER}; empieza el {DATE}.",
    "{FULLNAME} ha añadido a {EMAIL} como administrador del espacio de trabajo {MERCHANT}.",
    "Como solicitaste, eliminamos tu cuenta y todos los datos asociados el {DATE}.",
    "Por favor, borra las copias antiguas de {FOLDER} cuando se compruebe la migración; ocupan 2 TB.",
    "Aquí tienes el enlace a la carpeta compartida: {URL} (caduca en 7 días).",
    "¿Qué tal tu pedido en {MERCHANT}? Valora tu compra y ayuda a otros clientes.",
    "Os recomiendo {MERCHANT} para el catering; el año pasado quedamos todos muy contentos.",
    "Aviso de domiciliación: se cargarán {AMOUNT} en tu cuenta terminada en {ACC4} a partir del {DATE}.",
    "Pago fallido: no pudimos cobrar en tu tarjeta terminada en {CARD4} la suscripción {PLAN}. Actualiza tu método de pago.",
    "Aviso de seguridad: no hay ninguna retirada del modelo {SKU}; la retirada del {DATE} afecta solo al lote {BATCH}.",
    "Contabilidad, ¿podéis pagar la factura adjunta de {MERCHANT} ({AMOUNT})? Número de pedido {ORDER}.",
  ],
};

const ZH: TxParts = {
  names: ["王芳", "李伟", "张敏", "刘洋", "陈静", "杨磊", "赵婷", "黄强", "周丽", "吴杰", "徐娜", "孙浩"],
  nameOf: (f) => f,
  handles: ["wangfang", "liwei", "zhangmin", "liuyang", "chenjing", "yanglei", "zhaoting", "huangqiang", "zhouli", "wujie", "xuna", "sunhao"],
  merchants: ["晨光书店", "绿叶超市", "金桥酒店", "快达物流", "百味餐厅", "云帆电器", "安康药房", "蓝天出行", "小满咖啡", "青禾花店"],
  streets: ["中山路", "人民大道", "解放街", "建设路", "长江路", "和平里", "文化路", "滨江大道"],
  towns: ["杭州市", "成都市", "南京市", "武汉市", "西安市", "苏州市", "厦门市", "青岛市"],
  meetings: ["周例会", "第三季度预算评审", "一对一沟通", "设计评审", "供应商电话会", "迭代计划会", "新员工入职培训", "董事会准备会"],
  folders: ["财务/2024", "合同", "市场素材", "人事共享", "备份/旧", "团队照片", "客户交接", "法务"],
  plans: ["专业版", "家庭版", "企业版", "高级版", "基础版"],
  refs: ["五月房租", "发票2231", "生日礼物", "4B押金", "周五聚餐", "春游费用", "会员费"],
  subjects: ["您的付款", "退款确认", "回复：发票", "需要处理", "转发：合同", "您的订单已发货", "会议已取消", "已授予访问权限", "购买凭证", "回复：请假申请", "账户变更", "提醒"],
  greet: ["{NAME}你好：", "尊敬的{FULLNAME}：", "尊敬的客户：", "{NAME}，早上好！", "您好："],
  sign: ["谢谢！\n{NAME2}", "祝好，\n{NAME2}", "{MERCHANT}客服中心", "辛苦了，{NAME2}", "此致\n敬礼\n{NAME2}"],
  amount: (r) => r() < 0.5 ? `¥${group3(int(r, 3, 48000), ",")}.${pad2(int(r, 0, 99))}` : `${int(r, 3, 48000)}元`,
  date: (r) => `${int(r, 2023, 2026)}年${int(r, 1, 12)}月${int(r, 1, 28)}日`,
  iban: (r) => `${pick(r, ["6222", "6217", "6228"])} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)}`,
  address: (r, p) => `${pick(r, p.towns)}${pick(r, p.streets)}${int(r, 1, 300)}号${int(r, 1, 20)}栋${int(r, 101, 2208)}室`,
  frames: [
    "您尾号{CARD4}的银行卡于{DATE}在{MERCHANT}消费{AMOUNT}。如非本人操作，请致电客服。",
    "您的订单{ORDER}已退款{AMOUNT}，预计5-10个工作日到账。",
    "{NAME}，订单{ORDER}能全额退款吗？客户两件都退回来了，包裹今天到了。",
    "您已向{FULLNAME}（{IBAN}）转账{AMOUNT}，附言：{REF}。",
    "到账通知：{FULLNAME}向您转账{AMOUNT}，附言“{REF}”。",
    "{NAME}，请在周四前把签好的合同转发给{EMAIL}，法务需要一份。",
    "您提交的{AMOUNT}报销单已由{FULLNAME}审批通过，将随下月工资发放。",
    "{NAME}你好，有空的时候请在人事系统里批一下我{DATE}到{DATE2}的年假申请。",
    "{FULLNAME}已批准合并请求#{PR}“{PRTITLE}”，CI已通过，现在合并。",
    "提醒：发票{INV}（金额{AMOUNT}）将于{DATE}到期，请转账至{IBAN}。",
    "谢谢，发票{INV}已全额付清，无需进一步操作。",
    "订单{ORDER}的收货地址已修改为{ADDRESS}。如非本人操作，请联系客服。",
    "麻烦把我以后订单的收货地址改成{ADDRESS}，我们上周搬家了。",
    "您的订单{ORDER}已发货，运单号：{TRACK}，预计{DATE}送达。",
    "{FULLNAME}取消了{DATE} {TIME}的会议“{MEETING}”。",
    "能帮我把下周的会议都取消吗？我病假到{DATE}。",
    "{FULLNAME}已授予您文件夹“{FOLDER}”的编辑权限。",
    "IT同事你好，请给{NAME}开通{FOLDER}共享盘的只读权限，她{DATE}入职。",
    "{FULLNAME}已将{EMAIL}添加为{MERCHANT}工作区的管理员。",
    "根据您的申请，我们已于{DATE}删除您的账户及所有相关数据。",
    "迁移验证完成后，请删除{FOLDER}里的旧备份，占了2TB。",
    "共享文件夹链接：{URL}（7天内有效）。",
    "您在{MERCHANT}的订单体验如何？请为本次购买评分，帮助其他顾客。",
    "年会餐饮推荐{MERCHANT}，去年用过，大家都很满意。",
    "扣款提醒：{AMOUNT}将于{DATE}起从您尾号{ACC4}的账户中扣除。",
    "扣款失败：您尾号{CARD4}的银行卡未能支付{PLAN}订阅费用，请更新付款方式。",
    "安全公告：型号{SKU}没有召回；{DATE}公布的召回仅涉及批次{BATCH}。",
    "财务同事，请支付附件中{MERCHANT}的发票（{AMOUNT}），采购单号{ORDER}。",
  ],
};

const RU: TxParts = {
  names: ["Анна Соколова", "Дмитрий Орлов", "Ольга Кузнецова", "Сергей Волков", "Мария Лебедева", "Алексей Морозов", "Екатерина Новикова", "Игорь Павлов", "Наталья Фёдорова", "Павел Зайцев", "Юлия Белова", "Артём Голубев"],
  nameOf: (f) => f.split(" ")[0]!,
  handles: ["a.sokolova", "d.orlov", "olga.k", "s.volkov", "maria.lebedeva", "a.morozov", "e.novikova", "i.pavlov", "n.fedorova", "p.zaitsev", "yulia.b", "a.golubev"],
  merchants: ["Книжный на Арбате", "Пекарня «Колосок»", "Аптека «Здоровье»", "Гостиница «Волга»", "ЭлектроМир", "Такси «Быстро»", "Кофейня «Зерно»", "Велосалон «Спутник»", "Оптика «Взгляд»", "Кейтеринг «Вкус»"],
  streets: ["ул. Ленина", "пр. Мира", "ул. Садовая", "Набережная ул.", "ул. Гагарина", "Школьная ул.", "ул. Пушкина", "Лесной пер."],
  towns: ["Казань", "Самара", "Екатеринбург", "Нижний Новгород", "Томск", "Воронеж", "Пермь", "Ярославль"],
  meetings: ["Еженедельная планёрка", "Обсуждение бюджета на III квартал", "Встреча один на один", "Дизайн-ревью", "Созвон с поставщиком", "Планирование спринта", "Адаптация новичков", "Подготовка к совету"],
  folders: ["Финансы/2024", "Договоры", "Маркетинг", "Кадры", "Бэкапы/старые", "Фото команды", "Передача клиенту", "Юристы"],
  plans: ["Про", "Семейный", "Бизнес", "Премиум", "Базовый"],
  refs: ["аренда за май", "счёт 2231", "подарок на день рождения", "залог за квартиру", "ужин в пятницу", "школьная экскурсия", "членский взнос"],
  subjects: ["Ваш платёж", "Подтверждение возврата", "RE: счёт", "Требуется действие", "FW: договор", "Ваш заказ отправлен", "Встреча отменена", "Доступ предоставлен", "Ваш чек", "RE: заявление на отпуск", "Изменения в аккаунте", "Напоминание"],
  greet: ["Здравствуйте, {NAME}!", "Уважаемый клиент!", "Привет, {NAME}!", "Добрый день, {FULLNAME}!", "Добрый день!"],
  sign: ["С уважением,\n{NAME2}", "Спасибо!\n{NAME2}", "Служба поддержки {MERCHANT}", "Хорошего дня, {NAME2}", "Всего доброго,\n{NAME2}"],
  amount: (r) => group3(int(r, 100, 480000), "\u00a0") + (r() < 0.5 ? " ₽" : " руб."),
  date: (r) => r() < 0.5 ? `${pad2(int(r, 1, 28))}.${pad2(int(r, 1, 12))}.${int(r, 2023, 2026)}` : `${int(r, 1, 28)} ${pick(r, ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "сентября", "октября", "ноября", "декабря"])}`,
  iban: (r) => r() < 0.5 ? `40817 810 ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 3)}` : `2202 ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)}`,
  address: (r, p) => `г. ${pick(r, p.towns)}, ${pick(r, p.streets)}, д. ${int(r, 1, 120)}, кв. ${int(r, 1, 300)}`,
  frames: [
    "Покупка {AMOUNT} по карте *{CARD4} в {MERCHANT} {DATE}. Если вы не совершали эту операцию, позвоните в банк.",
    "Мы вернули {AMOUNT} за заказ № {ORDER}. Деньги поступят на счёт в течение 5–10 рабочих дней.",
    "{NAME}, можешь оформить полный возврат по заказу {ORDER}? Клиентка вернула оба товара, посылка пришла сегодня.",
    "Вы перевели {AMOUNT} получателю {FULLNAME} ({IBAN}). Назначение: {REF}.",
    "Зачисление: {AMOUNT} от {FULLNAME}, назначение «{REF}».",
    "{NAME}, перешли, пожалуйста, подписанный договор на {EMAIL} до четверга, юристам нужна копия.",
    "Ваш авансовый отчёт на {AMOUNT} утверждён ({FULLNAME}) и будет выплачен вместе со следующей зарплатой.",
    "{NAME}, согласуй, пожалуйста, мой отпуск с {DATE} по {DATE2} в HR-портале, когда будет минутка.",
    "{FULLNAME} одобрил(а) пул-реквест №{PR} «{PRTITLE}»; CI зелёный, сливаю.",
    "Напоминание: счёт {INV} на {AMOUNT} нужно оплатить до {DATE}. Реквизиты для перевода: {IBAN}.",
    "Спасибо, счёт {INV} оплачен полностью. Больше ничего делать не нужно.",
    "Адрес доставки заказа {ORDER} изменён на {ADDRESS}. Если это были не вы, обратитесь в поддержку.",
    "Пожалуйста, измените мой адрес доставки на {ADDRESS} для всех будущих заказов, мы переехали.",
    "Ваш заказ {ORDER} отправлен. Трек-номер: {TRACK}. Ожидаемая дата доставки: {DATE}.",
    "{FULLNAME} отменил(а) встречу «{MEETING}» {DATE} в {TIME}.",
    "Можешь отменить все мои встречи на следующей неделе? Я на больничном до {DATE}.",
    "{FULLNAME} предоставил(а) вам доступ на редактирование к папке «{FOLDER}».",
    "Коллеги из ИТ, выдайте, пожалуйста, {NAME} доступ на чтение к папке {FOLDER}, она выходит {DATE}.",
    "{FULLNAME} добавил(а) {EMAIL} администратором рабочего пространства {MERCHANT}.",
    "По вашему запросу мы удалили аккаунт и все связанные данные {DATE}.",
    "Удали, пожалуйста, старые бэкапы в {FOLDER}, когда проверим миграцию, они занимают 2 ТБ.",
    "Вот ссылка на общую папку: {URL} (действует 7 дней).",
    "Как вам заказ в {MERCHANT}? Оцените покупку и помогите другим покупателям.",
    "Для кейтеринга рекомендую {MERCHANT}, в прошлом году все остались довольны.",
    "Уведомление об автоплатеже: {AMOUNT} будут списаны со счёта *{ACC4} {DATE}.",
    "Платёж не прошёл: не удалось списать оплату подписки {PLAN} с карты *{CARD4}. Обновите способ оплаты.",
    "Уведомление о безопасности: модель {SKU} не отзывается; отзыв от {DATE} касается только партии {BATCH}.",
    "Бухгалтерия, оплатите, пожалуйста, приложенный счёт от {MERCHANT} ({AMOUNT}), номер заявки {ORDER}.",
  ],
};

const JA: TxParts = {
  names: ["佐藤 美咲", "鈴木 大輔", "高橋 直子", "田中 翔", "伊藤 由美", "渡辺 健", "山本 彩", "中村 拓也", "小林 恵", "加藤 亮", "吉田 真由", "松本 悠"],
  nameOf: (f) => f.split(" ")[0]! + "さん",
  handles: ["m.sato", "d.suzuki", "n.takahashi", "sho.tanaka", "y.ito", "ken.watanabe", "aya.yamamoto", "t.nakamura", "megumi.k", "ryo.kato", "mayu.y", "yu.matsumoto"],
  merchants: ["さくら書店", "青葉スーパー", "ひかり薬局", "ホテル港町", "東雲電機", "みなと交通", "喫茶こもれび", "サイクルショップ風", "めがねの光堂", "仕出し彩"],
  streets: ["中央1丁目", "本町3丁目", "緑町2丁目", "栄5丁目", "桜ヶ丘4丁目", "港南2丁目", "旭町1丁目", "若葉6丁目"],
  towns: ["札幌市北区", "仙台市青葉区", "横浜市港北区", "名古屋市中区", "京都市左京区", "神戸市灘区", "広島市南区", "福岡市中央区"],
  meetings: ["週次定例", "第3四半期予算レビュー", "1on1", "デザインレビュー", "取引先との打ち合わせ", "スプリント計画", "新入社員オリエンテーション", "取締役会準備"],
  folders: ["経理/2024", "契約書", "マーケティング素材", "人事共有", "バックアップ/旧", "チーム写真", "顧客引き継ぎ", "法務"],
  plans: ["プロ", "ファミリー", "ビジネス", "プレミアム", "ベーシック"],
  refs: ["5月分家賃", "請求書2231", "誕生日プレゼント", "敷金", "金曜の食事代", "遠足代", "会費"],
  subjects: ["お支払いについて", "返金完了のお知らせ", "Re: 請求書", "ご対応のお願い", "Fwd: 契約書", "ご注文の商品を発送しました", "会議キャンセル", "アクセス権付与のお知らせ", "領収書", "Re: 休暇申請", "アカウント情報の変更", "リマインダー"],
  greet: ["{NAME}", "{FULLNAME}様", "お客様各位", "{NAME}、お疲れさまです。", "いつもご利用ありがとうございます。"],
  sign: ["よろしくお願いします。\n{NAME2}", "ありがとうございます！\n{NAME2}", "{MERCHANT} カスタマーサポート", "{NAME2}より", "引き続きよろしくお願いいたします。"],
  amount: (r) => r() < 0.5 ? `${group3(int(r, 300, 480000), ",")}円` : `¥${group3(int(r, 300, 480000), ",")}`,
  date: (r) => r() < 0.5 ? `${int(r, 2023, 2026)}年${int(r, 1, 12)}月${int(r, 1, 28)}日` : `${int(r, 1, 12)}/${int(r, 1, 28)}`,
  iban: (r) => `${pick(r, ["普通", "当座"])} ${digits(r, 7)}`,
  address: (r, p) => `〒${digits(r, 3)}-${digits(r, 4)} ${pick(r, p.towns)}${pick(r, p.streets)}${int(r, 1, 30)}-${int(r, 1, 20)}`,
  frames: [
    "{DATE}、{MERCHANT}で末尾{CARD4}のカードにより{AMOUNT}のご利用がありました。お心当たりのない場合はカード裏面の番号までお電話ください。",
    "ご注文番号{ORDER}について{AMOUNT}を返金いたしました。口座への反映まで5〜10営業日かかります。",
    "{NAME}、注文{ORDER}を全額返金してもらえますか？お客様から2点とも返品が届きました。",
    "{FULLNAME}様（{IBAN}）へ{AMOUNT}を振り込みました。摘要：{REF}。",
    "入金のお知らせ：{FULLNAME}様より{AMOUNT}、摘要「{REF}」。",
    "{NAME}、署名済みの契約書を木曜までに{EMAIL}へ転送してください。法務部が控えを必要としています。",
    "{AMOUNT}の経費精算は{FULLNAME}さんにより承認され、次回の給与と一緒に支払われます。",
    "{NAME}、お手すきの際に人事ポータルで{DATE}から{DATE2}までの休暇申請を承認してください。",
    "{FULLNAME}さんがプルリクエスト#{PR}「{PRTITLE}」を承認しました。CIも通ったのでマージします。",
    "リマインダー：請求書{INV}（{AMOUNT}）のお支払い期限は{DATE}です。{IBAN}へお振り込みください。",
    "ありがとうございます。請求書{INV}のお支払いを確認しました。これ以上のお手続きは不要です。",
    "ご注文{ORDER}のお届け先住所が{ADDRESS}に変更されました。お心当たりのない場合はサポートまでご連絡ください。",
    "今後の注文のお届け先を{ADDRESS}に変更してください。先週引っ越しました。",
    "ご注文{ORDER}の商品を発送しました。お問い合わせ番号：{TRACK}。お届け予定日：{DATE}。",
    "{FULLNAME}さんが{DATE} {TIME}の会議「{MEETING}」をキャンセルしました。",
    "来週の私の会議をすべてキャンセルしてもらえますか？{DATE}まで病欠です。",
    "{FULLNAME}さんがフォルダ「{FOLDER}」の編集権限をあなたに付与しました。",
    "情シスの皆さん、{NAME}に{FOLDER}の共有フォルダの閲覧権限を付与してください。{DATE}入社です。",
    "{FULLNAME}さんが{EMAIL}を{MERCHANT}ワークスペースの管理者に追加しました。",
    "ご依頼のとおり、{DATE}にアカウントと関連データをすべて削除しました。",
    "移行の確認が済んだら、{FOLDER}の古いバックアップを削除してください。2TBあります。",
    "共有フォルダのリンクはこちらです：{URL}（有効期限7日）",
    "{MERCHANT}でのお買い物はいかがでしたか？商品を評価して、ほかのお客様のお役に立ててください。",
    "ケータリングなら{MERCHANT}をおすすめします。去年頼んでみんな満足していました。",
    "口座振替のお知らせ：{DATE}以降、末尾{ACC4}の口座から{AMOUNT}を引き落とします。",
    "お支払いに失敗しました：末尾{CARD4}のカードで{PLAN}プランの料金を決済できませんでした。お支払い方法を更新してください。",
    "安全に関するお知らせ：型番{SKU}はリコールの対象ではありません。{DATE}発表のリコールはロット{BATCH}のみが対象です。",
    "経理の皆さん、添付の{MERCHANT}の請求書（{AMOUNT}）の支払いをお願いします。発注番号は{ORDER}です。",
  ],
};

export const TX: Record<Lang, TxParts> = { en: EN, de: DE, fr: FR, es: ES, zh: ZH, ru: RU, ja: JA };

/** A frame of `lang` with its slots filled. */
export function txSentence(lang: Lang, frame: string, r: () => number): string {
  const p = TX[lang];
  const full = pick(r, p.names);
  const full2 = pick(r, p.names.filter((n) => n !== full));
  const slot: Record<string, () => string> = {
    NAME: () => p.nameOf(full),
    NAME2: () => p.nameOf(full2),
    FULLNAME: () => full,
    EMAIL: () => `${pick(r, p.handles)}@${pick(r, DOMAINS)}`,
    MERCHANT: () => pick(r, p.merchants),
    AMOUNT: () => p.amount(r),
    DATE: () => p.date(r),
    DATE2: () => p.date(r),
    IBAN: () => p.iban(r),
    ADDRESS: () => p.address(r, p),
    CARD4: () => digits(r, 4),
    ACC4: () => digits(r, 4),
    ORDER: () => pick(r, ["", "A-", "ORD-", "#", "10"]) + digits(r, int(r, 5, 8)),
    INV: () => pick(r, ["INV-", "RE-", "F", "2024-"]) + digits(r, int(r, 4, 6)),
    PR: () => String(int(r, 12, 4800)),
    PRTITLE: () => pick(r, PR_TITLES),
    TRACK: () => pick(r, [() => `1Z${hex(r, 6).toUpperCase()}${digits(r, 10)}`, () => `JD${digits(r, 16)}`, () => `${pick(r, ["SF", "YT", "RB"])}${digits(r, 12)}`, () => digits(r, 12)])(),
    TIME: () => `${int(r, 8, 18)}:${pick(r, ["00", "15", "30", "45"])}`,
    MEETING: () => pick(r, p.meetings),
    FOLDER: () => pick(r, p.folders),
    PLAN: () => pick(r, p.plans),
    REF: () => pick(r, p.refs),
    URL: () => `https://${pick(r, DOMAINS)}/${pick(r, ["s", "share", "r", "d", "review"])}/${hex(r, int(r, 6, 12))}`,
    SKU: () => `${pick(r, ["KX", "TR", "M", "HB", "Z"])}-${digits(r, 3)}${pick(r, ["", "A", "S", "-2"])}`,
    BATCH: () => `${pick(r, ["L", "B", "LOT"])}${digits(r, 5)}`,
    CHANNEL: () => pick(r, CHANNELS),
    TICKET: () => String(int(r, 1000, 99999)),
  };
  return frame.replace(/\{([A-Z0-9_]+)\}/g, (m, k: string) => (slot[k] ? slot[k]() : m));
}

/** Escapes a body for the carrier it goes into. */
function esc(how: string, s: string): string {
  if (how === "json") return s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  if (how === "html") return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "<br>");
  if (how === "csv") return s.replace(/"/g, '""').replace(/\n/g, " ");
  if (how === "ics") return s.replace(/\n/g, "\\n").replace(/,/g, "\\,").replace(/;/g, "\\;");
  return s;
}

/**
 * Transactional carriers of a body: what an agent reads from a mailbox, a payment provider, a calendar,
 * a ticket system or a log. `{BODY}` is the text; the rest is filled per language.
 */
const WRAPPERS: Array<[id: string, text: string, escape: string]> = [
  ["email", "From: {FROM}\nTo: {TO}\nDate: {ISODATE}\nSubject: {SUBJ}\n\n{GREET}\n\n{BODY}\n\n{SIGN}", ""],
  ["email-body", "{GREET}\n\n{BODY}\n\n{SIGN}", ""],
  ["email-quoted", "{BODY}\n\n{SIGN}\n\n-----Original Message-----\nFrom: {FROM}\nSubject: {SUBJ}", ""],
  ["html-mail", '<html><body><table class="receipt" width="600"><tr><td><p>{GREET}</p><p>{BODY}</p><p style="color:#888">{SIGN}</p></td></tr></table></body></html>', "html"],
  ["webhook-json", '{"id":"evt_{HEX}","type":"{EVTYPE}","created":{EPOCH},"data":{"object":{"amount":{CENTS},"currency":"{CUR}","description":"{BODY}"}}}', "json"],
  ["mailbox-api", '{"messages":[{"id":"{HEX}","from":"{FROM}","subject":"{SUBJ}","snippet":"{BODY}","labelIds":["INBOX","CATEGORY_UPDATES"]}]}', "json"],
  ["tool-inbox", "Tool read_inbox returned 2 messages:\n[1] {FROM} | {SUBJ}\n{BODY}\n[2] newsletter@{DOMAIN} | Weekly digest", ""],
  ["slack", '{"channel":"#{CHANNEL}","user":"{HANDLE}","text":"{BODY}","ts":"{EPOCH}.000200"}', "json"],
  ["log", '{ISODATE} INFO notifications-svc template=transactional to={TO} status=sent body="{BODY}"', "json"],
  ["csv", "date,description,amount\n{ISODAY},\"{BODY}\",{CENTS}", "csv"],
  ["ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:{HEX}@{DOMAIN}\nSUMMARY:{SUBJ}\nDESCRIPTION:{BODY}\nORGANIZER:mailto:{FROM}\nEND:VEVENT\nEND:VCALENDAR", "ics"],
  ["ticket-json", '{"ticket":"IT-{N}","requester":"{FROM}","subject":"{SUBJ}","description":"{BODY}","status":"open","priority":"normal"}', "json"],
  ["sms", "{MERCHANT}: {BODY}", ""],
  ["notification", "🔔 {SUBJ}\n{BODY}", ""],
];

/** `body` in a transactional carrier of `lang` (or alone); returns the carrier's id ("" when alone) and the text. */
export function txWrap(lang: Lang, body: string, r: () => number): [string, string] {
  if (r() < 0.25) return ["", body];
  const [id, tmpl, how] = pick(r, WRAPPERS);
  const p = TX[lang];
  const day = `${int(r, 2023, 2026)}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))}`;
  const vals: Record<string, () => string> = {
    FROM: () => `${pick(r, p.handles)}@${pick(r, DOMAINS)}`,
    TO: () => `${pick(r, p.handles)}@${pick(r, DOMAINS)}`,
    HANDLE: () => pick(r, p.handles),
    DOMAIN: () => pick(r, DOMAINS),
    ISODATE: () => `${day}T${pad2(int(r, 6, 22))}:${pad2(int(r, 0, 59))}:${pad2(int(r, 0, 59))}Z`,
    ISODAY: () => day,
    SUBJ: () => pick(r, p.subjects),
    GREET: () => txSentence(lang, pick(r, p.greet), r),
    SIGN: () => txSentence(lang, pick(r, p.sign), r),
    MERCHANT: () => pick(r, p.merchants),
    HEX: () => hex(r, 16),
    EVTYPE: () => pick(r, EVENT_TYPES),
    EPOCH: () => String(int(r, 1_690_000_000, 1_760_000_000)),
    CENTS: () => String(int(r, 300, 480000)),
    CUR: () => CURRENCIES[lang],
    CHANNEL: () => pick(r, CHANNELS),
    N: () => String(int(r, 100, 9999)),
  };
  const text = tmpl.replace(/\{([A-Z]+)\}/g, (m, k: string) => (k === "BODY" ? esc(how, body) : vals[k] ? esc(how, vals[k]()) : m));
  return [id, text];
}
