// The Kubernetes manifests beside the Dockerfile (deploy/kubernetes/) against the Kubernetes API's own schemas,
// as the kubernetes-models package ships them (validated offline), against Pod Security "restricted", and
// against the server's settings.

import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadAll } from 'js-yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { loadKeyFile } from '../middleware/keys/key-file.js';
import { readServerConfig } from '../server/config.js';

const DIR = join(process.cwd(), 'deploy', 'kubernetes');

type Manifest = { apiVersion: string; kind: string; [field: string]: unknown };

function manifests(dir = DIR): Manifest[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .flatMap((name) => loadAll(readFileSync(join(dir, name), 'utf8')) as Manifest[]);
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment as never,
  'v1 Service': Service as never,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget as never,
  'v1 Secret': Secret as never,
};

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
}
interface Port {
  name: string;
  containerPort: number;
}
interface Probe {
  httpGet: { path: string; port: string };
  failureThreshold: number;
  periodSeconds: number;
}
interface Container {
  image: string;
  env: { name: string; value: string }[];
  ports: Port[];
  securityContext: SecurityContext;
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe: Probe;
  livenessProbe: Probe;
  lifecycle: { preStop: { exec: { command: string[] } } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
}
interface PodSpec {
  terminationGracePeriodSeconds: number;
  securityContext: SecurityContext;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  containers: Container[];
  volumes: ({ name: string } & Record<string, unknown>)[];
  topologySpreadConstraints: {
    topologyKey: string;
    maxSkew: number;
    labelSelector: { matchLabels: Record<string, string> };
  }[];
}
interface DeploymentShape {
  spec: { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
}

const deployment = (): DeploymentShape =>
  manifests().find((m) => m.kind === 'Deployment') as unknown as DeploymentShape;
const envOf = (container: Container): Record<string, string> =>
  Object.fromEntries(container.env.map((e) => [e.name, e.value]));
const cpus = (quantity: string): number =>
  quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity);

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it('are a Deployment, a Service and a PodDisruptionBudget (and an example Secret), each valid against the Kubernetes schema', () => {
    const found = manifests();
    const example = manifests(join(DIR, 'example'));
    expect(found.map((m) => `${m.apiVersion} ${m.kind}`).sort()).to.deep.equal([
      'apps/v1 Deployment',
      'policy/v1 PodDisruptionBudget',
      'v1 Service',
    ]);
    expect(example.map((m) => `${m.apiVersion} ${m.kind}`)).to.deep.equal(['v1 Secret']);
    for (const manifest of [...found, ...example]) {
      const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}`]!;
      expect(() => new Model(manifest as never).validate(), `${manifest.kind}`).to.not.throw();
    }
    // The validator does refuse what the API would: a replica count that is not a number.
    const broken = structuredClone(found.find((m) => m.kind === 'Deployment')!) as unknown as {
      spec: { replicas: unknown };
    };
    broken.spec.replicas = 'three';
    expect(() => new Deployment(broken as never).validate()).to.throw();
  });

  it('meet Pod Security "restricted": non-root, no escalation, no capabilities, RuntimeDefault seccomp, read-only root', () => {
    const pod = deployment().spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).to.equal(true);
    expect(pod.securityContext.runAsUser).to.not.equal(0);
    expect(pod.securityContext.seccompProfile).to.deep.equal({ type: 'RuntimeDefault' });
    expect([pod.hostNetwork, pod.hostPID, pod.hostIPC].filter(Boolean)).to.deep.equal([]);
    // Restricted allows only these volume types (no hostPath).
    const allowed = new Set([
      'configMap',
      'csi',
      'downwardAPI',
      'emptyDir',
      'ephemeral',
      'persistentVolumeClaim',
      'projected',
      'secret',
    ]);
    for (const volume of pod.volumes)
      expect(
        Object.keys(volume).filter((k) => k !== 'name' && !allowed.has(k)),
        volume.name,
      ).to.deep.equal([]);
    for (const container of pod.containers) {
      const security = container.securityContext;
      expect(security.allowPrivilegeEscalation, 'allowPrivilegeEscalation').to.equal(false);
      expect(security.privileged ?? false, 'privileged').to.equal(false);
      expect(security.runAsNonRoot, 'runAsNonRoot').to.equal(true);
      expect(security.readOnlyRootFilesystem, 'readOnlyRootFilesystem').to.equal(true);
      expect(security.capabilities?.drop, 'capabilities.drop').to.deep.equal(['ALL']);
      expect(security.capabilities?.add ?? [], 'capabilities.add').to.deep.equal([]);
      expect(security.seccompProfile, 'seccompProfile').to.deep.equal({ type: 'RuntimeDefault' });
      // With a read-only root, every writable mount is an emptyDir (where the server may write: /tmp).
      const emptyDirs = new Set(pod.volumes.filter((v) => 'emptyDir' in v).map((v) => v.name));
      const writable = container.volumeMounts.filter((m) => !m.readOnly);
      expect(writable.map((m) => m.mountPath)).to.deep.equal(['/tmp']);
      for (const mount of writable) expect(emptyDirs.has(mount.name), mount.name).to.equal(true);
    }
  });

  it('run a pinned image: the package version, never :latest', () => {
    const { version } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
    for (const container of deployment().spec.template.spec.containers)
      expect(container.image).to.match(new RegExp(`:${version.replace(/\./g, '\\.')}$`));
  });

  it('serve /metrics and the probes on OPS_PORT, a port the Service does not route', () => {
    const container = deployment().spec.template.spec.containers[0]!;
    const env = envOf(container);
    const ports = Object.fromEntries(container.ports.map((p) => [p.name, p.containerPort]));
    expect(Number(env.OPS_PORT)).to.equal(ports.ops);
    expect(Number(env.PORT)).to.equal(ports.http);
    expect([container.readinessProbe.httpGet.port, container.livenessProbe.httpGet.port]).to.deep.equal(['ops', 'ops']);
    const service = manifests().find((m) => m.kind === 'Service') as unknown as {
      spec: { ports: { targetPort: string | number }[] };
    };
    expect(service.spec.ports.map((p) => p.targetPort)).to.deep.equal(['http']);
    expect(readServerConfig(env).opsPort).to.equal(ports.ops);
  });

  it('tolerate a busy pool in readiness, match render threads to the CPU limit, and spread replicas', () => {
    const pod = deployment().spec.template.spec;
    const container = pod.containers[0]!;
    expect(container.readinessProbe.failureThreshold).to.be.at.least(3);
    expect(
      readServerConfig(envOf(container)).readyWhenSaturated,
      'a saturated pool is not a readiness failure',
    ).to.equal(true);
    const { requests, limits } = container.resources;
    expect(requests.cpu, 'cpu request').to.be.a('string');
    expect(limits.cpu, 'cpu limit').to.be.a('string');
    expect(Number(envOf(container).RENDER_THREADS)).to.equal(cpus(limits.cpu!));
    expect(readServerConfig(envOf(container)).render.threads).to.equal(cpus(limits.cpu!));
    const labels = deployment().spec.template.metadata.labels;
    const keys = pod.topologySpreadConstraints.map((c) => c.topologyKey);
    expect(keys).to.include('kubernetes.io/hostname');
    for (const constraint of pod.topologySpreadConstraints)
      expect(constraint.labelSelector.matchLabels).to.deep.equal(labels);
  });

  it('probe /readyz and /healthz, wait in preStop as long as SHUTDOWN_DELAY_MS, and start with settings the server accepts', () => {
    const { spec } = deployment().spec.template;
    const container = spec.containers[0]!;
    const env = envOf(container);
    expect(container.readinessProbe.httpGet.path).to.equal('/readyz');
    expect(container.livenessProbe.httpGet.path).to.equal('/healthz');
    expect(container.lifecycle.preStop.exec.command).to.deep.equal([
      'sleep',
      String(Number(env.SHUTDOWN_DELAY_MS) / 1000),
    ]);
    // The grace period covers the preStop wait, the server's own delay and the drain.
    expect(spec.terminationGracePeriodSeconds * 1000).to.be.above(
      2 * Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_TIMEOUT_MS),
    );
    const config = readServerConfig(env);
    expect(config.fleet.store.backend.id).to.equal('redis-sentinel');
    expect(config.fleet.store.target).to.have.property('sentinels').with.length(3);
    expect(config.fleet.shadowStore).to.equal('store');
  });

  it('mount the Secret the example shows, whose keys.json the server reads', async () => {
    const { spec } = deployment().spec.template;
    const env = envOf(spec.containers[0]!);
    const secret = manifests(join(DIR, 'example'))[0] as unknown as {
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    const volume = spec.volumes.find((v) => 'secret' in v) as { name: string; secret: { secretName: string } };
    expect(volume.secret.secretName).to.equal(secret.metadata.name);
    const mount = spec.containers[0]!.volumeMounts.find((m) => m.name === volume.name)!;
    expect(join(mount.mountPath, basename(env.API_KEYS_FILE!))).to.equal(env.API_KEYS_FILE);
    const file = secret.stringData[basename(env.API_KEYS_FILE!)];
    expect(file, 'the Secret holds the file API_KEYS_FILE names').to.be.a('string');
    const dir = mkdtempSync(join(tmpdir(), 'zpl-k8s-secret-'));
    try {
      writeFileSync(join(dir, 'keys.json'), file!);
      expect(await loadKeyFile(join(dir, 'keys.json'))).to.have.length(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const comments = readFileSync(join(DIR, 'example', 'api-keys-secret.yaml'), 'utf8');
    expect(comments).to.contain(
      `kubectl create secret generic ${secret.metadata.name} --from-file=keys.json=keys.json`,
    );
  });
});
