// The Kubernetes manifests beside the Dockerfile (deploy/kubernetes/) against the Kubernetes API's own schemas,
// as the kubernetes-models package ships them (validated offline), and against the server's settings.

import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Service } from 'kubernetes-models/v1/Service';
import { readServerConfig } from '../server/config.js';

const DIR = join(process.cwd(), 'deploy', 'kubernetes');

type Manifest = { apiVersion: string; kind: string; [field: string]: unknown };

function manifests(): Manifest[] {
  return readdirSync(DIR).filter((n) => n.endsWith('.yaml')).flatMap((name) => loadAll(readFileSync(join(DIR, name), 'utf8')) as Manifest[]);
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment as never,
  'v1 Service': Service as never,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget as never,
};

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it('are a Deployment, a Service and a PodDisruptionBudget, each valid against the Kubernetes schema', () => {
    const found = manifests();
    expect(found.map((m) => `${m.apiVersion} ${m.kind}`).sort()).to.deep.equal(Object.keys(MODELS).sort());
    for (const manifest of found) {
      const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}`]!;
      expect(() => new Model(manifest as never).validate(), `${manifest.kind}`).to.not.throw();
    }
    // The validator does refuse what the API would: a replica count that is not a number.
    const broken = structuredClone(found.find((m) => m.kind === 'Deployment')!) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'three';
    expect(() => new Deployment(broken as never).validate()).to.throw();
  });

  it('probe /readyz and /healthz, wait in preStop as long as SHUTDOWN_DELAY_MS, and start with settings the server accepts', () => {
    const deployment = manifests().find((m) => m.kind === 'Deployment') as unknown as {
      spec: { template: { spec: { terminationGracePeriodSeconds: number; containers: {
        env: { name: string; value: string }[]; readinessProbe: { httpGet: { path: string } }; livenessProbe: { httpGet: { path: string } };
        lifecycle: { preStop: { exec: { command: string[] } } };
      }[] } } };
    };
    const { spec } = deployment.spec.template;
    const container = spec.containers[0]!;
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    expect(container.readinessProbe.httpGet.path).to.equal('/readyz');
    expect(container.livenessProbe.httpGet.path).to.equal('/healthz');
    expect(container.lifecycle.preStop.exec.command).to.deep.equal(['sleep', String(Number(env.SHUTDOWN_DELAY_MS) / 1000)]);
    // The grace period covers the preStop wait, the server's own delay and the drain.
    expect(spec.terminationGracePeriodSeconds * 1000).to.be.above(2 * Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_TIMEOUT_MS));
    const config = readServerConfig(env);
    expect(config.fleet.store.backend.id).to.equal('redis-sentinel');
    expect(config.fleet.store.target).to.have.property('sentinels').with.length(3);
    expect(config.fleet.shadowStore).to.equal('store');
  });
});
