// A worker thread of losoInjectionInWorkers: prepares the cases, runs its share of the folds' trainings and
// posts their results back.

import { parentPort, workerData } from 'node:worker_threads';
import * as trainer from './injection-trainer.ts';
import type { TrainingExample, TrainSettings } from './injection-trainer.ts';
import * as loso from './loso-injection.ts';
import type { FoldTask, InjectionDataCase } from './loso-injection.ts';

const { cases, extra, settings, tasks, evaluationOnly } = workerData as {
  cases: InjectionDataCase[];
  evaluationOnly: string[];
  extra: TrainingExample[];
  settings: TrainSettings;
  tasks: FoldTask[];
};
const prepared = loso.prepare(cases);
const extraFeats = extra.map((e) => trainer.featurize(e.text));
parentPort!.postMessage(
  tasks.map((t) => loso.runTask(prepared, extra, extraFeats, settings, t, new Set(evaluationOnly))),
);
