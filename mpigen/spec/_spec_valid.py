"""Generated from schemas/mpigen.dev/trainingjob_v1alpha1.json by mpigen/spec/schemagen.py: do not edit.

Regenerate with `python -m mpigen.spec.schemagen`; a test fails while this file is stale.
"""
# fmt: off
from mpigen.spec.schema_runtime import Pattern as _Pattern, equal as _equal

SCHEMA = 'mpigen.dev/trainingjob_v1alpha1.json'
FINGERPRINT = (256427, 605438642)

_C1 = frozenset(['apiVersion', 'kind', 'metadata', 'spec'])
_C2 = frozenset(['mpigen.dev/v1alpha1'])
_C4 = frozenset(['TrainingJob'])
_C6 = frozenset(['name'])
_P7 = _Pattern('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')
_P9 = _Pattern('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
_C11 = frozenset([])
_P12 = _Pattern('^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')
_P14 = _Pattern('^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$')
_C19 = frozenset(['annotations', 'labels', 'name', 'namespace'])
_C23 = frozenset(['mpi', 'pytorch', 'tensorflow'])
_C26 = frozenset(['ClusterTrainingRuntime', 'TrainingRuntime'])
_C28 = frozenset(['kind', 'name'])
_C32 = frozenset(['Always', 'IfNotPresent', 'Never'])
_C40 = frozenset(['name', 'optional'])
_C42 = frozenset(['configMapRef', 'prefix', 'secretRef'])
_P47 = _Pattern('^[0-9]+$')
_C52 = frozenset(['cpu', 'gpu', 'memory'])
_P53 = _Pattern('^([A-Za-z0-9][-A-Za-z0-9_.]*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')
_C57 = frozenset(['Equal', 'Exists'])
_C59 = frozenset(['NoExecute', 'NoSchedule', 'PreferNoSchedule'])
_C62 = frozenset(['effect', 'key', 'operator', 'tolerationSeconds', 'value'])
_C68 = frozenset(['preference', 'weight'])
_C71 = frozenset(['key', 'operator'])
_C72 = frozenset(['key', 'operator', 'values'])
_C74 = frozenset(['matchExpressions', 'matchFields'])
_C77 = frozenset(['nodeSelectorTerms'])
_C79 = frozenset(['preferredDuringSchedulingIgnoredDuringExecution', 'requiredDuringSchedulingIgnoredDuringExecution'])
_C82 = frozenset(['podAffinityTerm', 'weight'])
_C84 = frozenset(['topologyKey'])
_C88 = frozenset(['matchExpressions', 'matchLabels'])
_C89 = frozenset(['labelSelector', 'matchLabelKeys', 'mismatchLabelKeys', 'namespaceSelector', 'namespaces', 'topologyKey'])
_C93 = frozenset(['nodeAffinity', 'podAffinity', 'podAntiAffinity'])
_C95 = frozenset(['maxSkew', 'topologyKey', 'whenUnsatisfiable'])
_C96 = frozenset(['labelSelector', 'matchLabelKeys', 'maxSkew', 'minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy', 'topologyKey', 'whenUnsatisfiable'])
_C100 = frozenset(['type'])
_C101 = frozenset(['localhostProfile', 'type'])
_C103 = frozenset(['add', 'drop'])
_C105 = frozenset(['level', 'role', 'type', 'user'])
_C108 = frozenset(['gmsaCredentialSpec', 'gmsaCredentialSpecName', 'hostProcess', 'runAsUserName'])
_C109 = frozenset(['allowPrivilegeEscalation', 'appArmorProfile', 'capabilities', 'privileged', 'procMount', 'readOnlyRootFilesystem', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxOptions', 'seccompProfile', 'windowsOptions'])
_C113 = frozenset(['name', 'value'])
_C115 = frozenset(['appArmorProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxChangePolicy', 'seLinuxOptions', 'seccompProfile', 'supplementalGroups', 'supplementalGroupsPolicy', 'sysctls', 'windowsOptions'])
_C116 = frozenset(['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'])
_C119 = frozenset(['containerPort'])
_C120 = frozenset(['containerPort', 'hostIP', 'hostPort', 'name', 'protocol'])
_C124 = frozenset(['command'])
_C126 = frozenset(['port'])
_C127 = frozenset(['port', 'service'])
_C132 = frozenset(['host', 'httpHeaders', 'path', 'port', 'scheme'])
_C134 = frozenset(['host', 'port'])
_C135 = frozenset(['exec', 'failureThreshold', 'grpc', 'httpGet', 'initialDelaySeconds', 'periodSeconds', 'successThreshold', 'tcpSocket', 'terminationGracePeriodSeconds', 'timeoutSeconds'])
_C137 = frozenset(['name', 'resourceClaimName', 'resourceClaimTemplateName'])
_C143 = frozenset(['key'])
_C144 = frozenset(['key', 'name', 'optional'])
_C146 = frozenset(['fieldPath'])
_C147 = frozenset(['apiVersion', 'fieldPath'])
_C149 = frozenset(['key', 'path', 'volumeName'])
_C150 = frozenset(['key', 'optional', 'path', 'volumeName'])
_C152 = frozenset(['resource'])
_C154 = frozenset(['containerName', 'divisor', 'resource'])
_C156 = frozenset(['configMapKeyRef', 'fieldRef', 'fileKeyRef', 'resourceFieldRef', 'secretKeyRef'])
_C157 = frozenset(['name', 'value', 'valueFrom'])
_C162 = frozenset(['seconds'])
_C163 = frozenset(['exec', 'httpGet', 'sleep', 'tcpSocket'])
_C164 = frozenset(['postStart', 'preStop', 'stopSignal'])
_C166 = frozenset(['resourceName', 'restartPolicy'])
_C170 = frozenset(['name', 'request'])
_C173 = frozenset(['claims', 'limits', 'requests'])
_C175 = frozenset(['action'])
_C177 = frozenset(['operator'])
_C178 = frozenset(['operator', 'values'])
_C179 = frozenset(['action', 'exitCodes'])
_C182 = frozenset(['devicePath', 'name'])
_C185 = frozenset(['mountPath', 'name'])
_C186 = frozenset(['mountPath', 'mountPropagation', 'name', 'readOnly', 'recursiveReadOnly', 'subPath', 'subPathExpr'])
_C188 = frozenset(['args', 'command', 'env', 'envFrom', 'image', 'imagePullPolicy', 'lifecycle', 'livenessProbe', 'name', 'ports', 'readinessProbe', 'resizePolicy', 'resources', 'restartPolicy', 'restartPolicyRules', 'securityContext', 'startupProbe', 'stdin', 'stdinOnce', 'terminationMessagePath', 'terminationMessagePolicy', 'tty', 'volumeDevices', 'volumeMounts', 'workingDir'])
_C202 = frozenset(['secretKeyRef'])
_C203 = frozenset(['key', 'name'])
_P207 = _Pattern('^[-._a-zA-Z][-._a-zA-Z0-9]*$')
_P223 = _Pattern('^/')
_C260 = frozenset(['path'])
_C261 = frozenset(['path', 'type'])
_P263 = _Pattern('^[a-z]([-a-z0-9]*[a-z0-9])?$')
_C265 = frozenset(['Bidirectional', 'HostToContainer', 'None'])
_C267 = frozenset(['Disabled', 'Enabled', 'IfPossible'])
_C269 = frozenset(['awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'claimName', 'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'image', 'iscsi', 'mountPath', 'mountPropagation', 'name', 'nfs', 'persistentVolumeClaim', 'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'readOnly', 'recursiveReadOnly', 'scaleIO', 'secret', 'storageos', 'subPath', 'subPathExpr', 'vsphereVolume'])
_C272 = frozenset(['volumeID'])
_C273 = frozenset(['fsType', 'partition', 'readOnly', 'volumeID'])
_C275 = frozenset(['diskName', 'diskURI'])
_C276 = frozenset(['cachingMode', 'diskName', 'diskURI', 'fsType', 'kind', 'readOnly'])
_C278 = frozenset(['secretName', 'shareName'])
_C279 = frozenset(['readOnly', 'secretName', 'shareName'])
_C281 = frozenset(['monitors'])
_C283 = frozenset(['monitors', 'path', 'readOnly', 'secretFile', 'secretRef', 'user'])
_C285 = frozenset(['fsType', 'readOnly', 'secretRef', 'volumeID'])
_C288 = frozenset(['key', 'path'])
_C289 = frozenset(['key', 'mode', 'path'])
_C291 = frozenset(['defaultMode', 'items', 'name', 'optional'])
_C293 = frozenset(['driver'])
_C294 = frozenset(['driver', 'fsType', 'nodePublishSecretRef', 'readOnly', 'volumeAttributes'])
_C297 = frozenset(['fieldRef', 'mode', 'path', 'resourceFieldRef'])
_C299 = frozenset(['defaultMode', 'items'])
_C301 = frozenset(['medium', 'sizeLimit'])
_C304 = frozenset(['spec'])
_C309 = frozenset(['apiVersion', 'fieldsType', 'fieldsV1', 'manager', 'operation', 'subresource', 'time'])
_C312 = frozenset(['apiVersion', 'kind', 'name', 'uid'])
_C313 = frozenset(['apiVersion', 'blockOwnerDeletion', 'controller', 'kind', 'name', 'uid'])
_C315 = frozenset(['annotations', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'finalizers', 'generateName', 'generation', 'labels', 'managedFields', 'name', 'namespace', 'ownerReferences', 'resourceVersion', 'selfLink', 'uid'])
_C318 = frozenset(['apiGroup', 'kind', 'name'])
_C320 = frozenset(['apiGroup', 'kind', 'name', 'namespace'])
_C322 = frozenset(['limits', 'requests'])
_C323 = frozenset(['accessModes', 'dataSource', 'dataSourceRef', 'resources', 'selector', 'storageClassName', 'volumeAttributesClassName', 'volumeMode', 'volumeName'])
_C324 = frozenset(['metadata', 'spec'])
_C325 = frozenset(['volumeClaimTemplate'])
_C327 = frozenset(['fsType', 'lun', 'readOnly', 'targetWWNs', 'wwids'])
_C329 = frozenset(['driver', 'fsType', 'options', 'readOnly', 'secretRef'])
_C331 = frozenset(['datasetName', 'datasetUUID'])
_C333 = frozenset(['pdName'])
_C334 = frozenset(['fsType', 'partition', 'pdName', 'readOnly'])
_C336 = frozenset(['repository'])
_C337 = frozenset(['directory', 'repository', 'revision'])
_C339 = frozenset(['endpoints', 'path'])
_C340 = frozenset(['endpoints', 'path', 'readOnly'])
_C342 = frozenset(['pullPolicy', 'reference'])
_C344 = frozenset(['iqn', 'lun', 'targetPortal'])
_C345 = frozenset(['chapAuthDiscovery', 'chapAuthSession', 'fsType', 'initiatorName', 'iqn', 'iscsiInterface', 'lun', 'portals', 'readOnly', 'secretRef', 'targetPortal'])
_C347 = frozenset(['path', 'server'])
_C348 = frozenset(['path', 'readOnly', 'server'])
_C350 = frozenset(['claimName'])
_C351 = frozenset(['claimName', 'readOnly'])
_C353 = frozenset(['pdID'])
_C354 = frozenset(['fsType', 'pdID'])
_C356 = frozenset(['fsType', 'readOnly', 'volumeID'])
_C360 = frozenset(['labelSelector', 'name', 'optional', 'path', 'signerName'])
_C362 = frozenset(['items', 'name', 'optional'])
_C364 = frozenset(['items'])
_C366 = frozenset(['keyType', 'signerName'])
_C367 = frozenset(['certificateChainPath', 'credentialBundlePath', 'keyPath', 'keyType', 'maxExpirationSeconds', 'signerName', 'userAnnotations'])
_C370 = frozenset(['audience', 'expirationSeconds', 'path'])
_C371 = frozenset(['clusterTrustBundle', 'configMap', 'downwardAPI', 'podCertificate', 'secret', 'serviceAccountToken'])
_C373 = frozenset(['defaultMode', 'sources'])
_C375 = frozenset(['registry', 'volume'])
_C376 = frozenset(['group', 'readOnly', 'registry', 'tenant', 'user', 'volume'])
_C378 = frozenset(['image', 'monitors'])
_C379 = frozenset(['fsType', 'image', 'keyring', 'monitors', 'pool', 'readOnly', 'secretRef', 'user'])
_C381 = frozenset(['gateway', 'secretRef', 'system'])
_C382 = frozenset(['fsType', 'gateway', 'protectionDomain', 'readOnly', 'secretRef', 'sslEnabled', 'storageMode', 'storagePool', 'system', 'volumeName'])
_C384 = frozenset(['defaultMode', 'items', 'optional', 'secretName'])
_C386 = frozenset(['fsType', 'readOnly', 'secretRef', 'volumeName', 'volumeNamespace'])
_C388 = frozenset(['volumePath'])
_C389 = frozenset(['fsType', 'storagePolicyID', 'storagePolicyName', 'volumePath'])
_C398 = frozenset(['affinity', 'annotations', 'args', 'command', 'dnsPolicy', 'env', 'envFrom', 'hostNetwork', 'image', 'imagePullPolicy', 'imagePullSecrets', 'initContainers', 'labels', 'livenessProbe', 'nodeSelector', 'podSecurityContext', 'podTemplatePatch', 'ports', 'priorityClassName', 'readinessProbe', 'resourceClaims', 'resources', 'runtimeClassName', 'securityContext', 'serviceAccountName', 'sidecars', 'startupProbe', 'tolerations', 'topologySpreadConstraints', 'volumes', 'workingDir'])
_C401 = frozenset(['Intel', 'MPICH', 'OpenMPI'])
_C403 = frozenset(['AtStartup', 'WaitForWorkersReady'])
_C405 = frozenset(['image', 'priorityClassName', 'resources'])
_C407 = frozenset(['extraArgs', 'implementation', 'launcher', 'launcherCreationPolicy', 'mpirun', 'runLauncherAsWorker', 'sshAuthMountPath'])
_C409 = frozenset(['kube-batch', 'kueue', 'none', 'scheduler-plugins', 'volcano'])
_C411 = frozenset(['gang', 'gpuTopology', 'minAvailable', 'minResources', 'priorityClass', 'queue', 'scheduleTimeoutSeconds', 'schedulerName'])
_C413 = frozenset(['All', 'None', 'Running'])
_C416 = frozenset(['activeDeadlineSeconds', 'backoffLimit', 'cleanPodPolicy', 'suspend', 'ttlSecondsAfterFinished'])
_C420 = frozenset(['Always', 'ExitCode', 'Never', 'OnFailure'])
_C423 = frozenset(['master', 'port'])
_C425 = frozenset(['image', 'priorityClassName', 'replicas', 'resources'])
_C427 = frozenset(['chief', 'evaluator', 'port', 'ps'])
_C429 = frozenset(['ClusterIP', 'NodePort'])
_C431 = frozenset(['image', 'logDir', 'port', 'serviceType'])
_C433 = frozenset(['depth', 'password', 'repository', 'revision', 'secret', 'username'])
_C435 = frozenset(['image', 'source'])
_C437 = frozenset(['git', 'mountPath', 'rsync'])
_C439 = frozenset(['command', 'framework', 'image', 'workers'])
_C441 = frozenset(['affinity', 'annotations', 'args', 'code', 'command', 'dnsPolicy', 'env', 'envFrom', 'framework', 'hostNetwork', 'image', 'imagePullPolicy', 'imagePullSecrets', 'initContainers', 'labels', 'livenessProbe', 'mpi', 'nodeSelector', 'podSecurityContext', 'podTemplatePatch', 'ports', 'priorityClassName', 'pytorch', 'readinessProbe', 'resourceClaims', 'resources', 'restartPolicy', 'roles', 'runPolicy', 'runtime', 'runtimeClassName', 'scheduling', 'securityContext', 'serviceAccountName', 'shmSize', 'sidecars', 'slotsPerWorker', 'startupProbe', 'tensorboard', 'tensorflow', 'tolerations', 'topologySpreadConstraints', 'volumes', 'workers', 'workingDir'])
_P442 = _Pattern('^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$')
_C445 = frozenset(['affinity', 'annotations', 'args', 'code', 'command', 'dnsPolicy', 'env', 'envFrom', 'environments', 'framework', 'hostNetwork', 'image', 'imagePullPolicy', 'imagePullSecrets', 'initContainers', 'labels', 'livenessProbe', 'mpi', 'nodeSelector', 'podSecurityContext', 'podTemplatePatch', 'ports', 'priorityClassName', 'pytorch', 'readinessProbe', 'resourceClaims', 'resources', 'restartPolicy', 'roles', 'runPolicy', 'runtime', 'runtimeClassName', 'scheduling', 'securityContext', 'serviceAccountName', 'shmSize', 'sidecars', 'slotsPerWorker', 'startupProbe', 'tensorboard', 'tensorflow', 'tolerations', 'topologySpreadConstraints', 'volumes', 'workers', 'workingDir'])

def _prop3(v):
    if not (type(v) is str and v in _C2):
        return False
    return True


def _prop5(v):
    if not (type(v) is str and v in _C4):
        return False
    return True


def _prop8(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1 or len(v) > 253 or _P7.search(v) is None):
        return False
    return True


def _prop10(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P9.search(v) is None):
        return False
    return True


def _extra13(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P12.search(v) is None):
        return False
    return True


def _names15(v):
    if type(v) is str and (len(v) > 317 or _P14.search(v) is None):
        return False
    return True


def _prop16(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra13(x):
                return False
        if not all(map(_names15, v)):
            return False
    return True


def _extra17(v):
    if not (type(v) is str):
        return False
    return True


def _prop18(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
        if not all(map(_names15, v)):
            return False
    return True


def _prop20(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _prop8(v['name']):
            return False
        if 'namespace' in v and not _prop10(v['namespace']):
            return False
        if 'labels' in v and not _prop16(v['labels']):
            return False
        if 'annotations' in v and not _prop18(v['annotations']):
            return False
        if not _C19.issuperset(v):
            return False
    return True


def _prop24(v):
    if not (type(v) is str and v in _C23):
        return False
    return True


def _any25(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1 or len(v) > 253):
        return False
    return True


def _prop27(v):
    if not (type(v) is str and v in _C26):
        return False
    return True


def _any29(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _any25(v['name']):
            return False
        if 'kind' in v and not _prop27(v['kind']):
            return False
        if not _C28.issuperset(v):
            return False
    return True


def _prop30(v):
    if not (_any25(v) or _any29(v)):
        return False
    return True


def _prop31(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop33(v):
    if not (type(v) is str and v in _C32):
        return False
    return True


def _prop34(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_prop31, v)):
        return False
    return True


def _prop35(v):
    if not (type(v) is list):
        return False
    if type(v) is list and (len(v) < 1):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop36(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop39(v):
    if not (type(v) is bool):
        return False
    return True


def _ref38(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C40.issuperset(v):
            return False
    return True


def _ref41(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C40.issuperset(v):
            return False
    return True


def _ref37(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'configMapRef' in v and not _ref38(v['configMapRef']):
            return False
        if 'prefix' in v and not _extra17(v['prefix']):
            return False
        if 'secretRef' in v and not _ref41(v['secretRef']):
            return False
        if not _C42.issuperset(v):
            return False
    return True


def _prop43(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref37, v)):
        return False
    return True


def _prop44(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _any46(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
    return True


def _any48(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P47.search(v) is None):
        return False
    return True


def _prop49(v):
    if not (_any46(v) or _any48(v)):
        return False
    return True


def _any50(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop51(v):
    if not (_prop31(v) or _any50(v)):
        return False
    return True


def _names54(v):
    if type(v) is str and (_P53.search(v) is None):
        return False
    return True


def _ref45(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gpu' in v and not _prop49(v['gpu']):
            return False
        if 'cpu' in v and not _prop51(v['cpu']):
            return False
        if 'memory' in v and not _prop51(v['memory']):
            return False
        for k, x in v.items():
            if k not in _C52 and not _prop51(x):
                return False
        if not all(map(_names54, v)):
            return False
    return True


def _prop55(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
            return False
    return True


def _prop56(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
    return True


def _prop58(v):
    if not (type(v) is str and v in _C57):
        return False
    return True


def _prop60(v):
    if not (type(v) is str and v in _C59):
        return False
    return True


def _prop61(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _item63(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _prop58(v['operator']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if 'effect' in v and not _prop60(v['effect']):
            return False
        if 'tolerationSeconds' in v and not _prop61(v['tolerationSeconds']):
            return False
        if not _C62.issuperset(v):
            return False
    return True


def _prop64(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item63, v)):
        return False
    return True


def _ref70(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C71.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _extra17(v['operator']):
            return False
        if 'values' in v and not _prop36(v['values']):
            return False
        if not _C72.issuperset(v):
            return False
    return True


def _prop73(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref70, v)):
        return False
    return True


def _ref69(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'matchExpressions' in v and not _prop73(v['matchExpressions']):
            return False
        if 'matchFields' in v and not _prop73(v['matchFields']):
            return False
        if not _C74.issuperset(v):
            return False
    return True


def _ref67(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C68.issubset(v):
            return False
        if 'preference' in v and not _ref69(v['preference']):
            return False
        if 'weight' in v and not _prop61(v['weight']):
            return False
        if not _C68.issuperset(v):
            return False
    return True


def _prop75(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref67, v)):
        return False
    return True


def _prop78(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref69, v)):
        return False
    return True


def _ref76(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C77.issubset(v):
            return False
        if 'nodeSelectorTerms' in v and not _prop78(v['nodeSelectorTerms']):
            return False
        if not _C77.issuperset(v):
            return False
    return True


def _ref66(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'preferredDuringSchedulingIgnoredDuringExecution' in v and not _prop75(v['preferredDuringSchedulingIgnoredDuringExecution']):
            return False
        if 'requiredDuringSchedulingIgnoredDuringExecution' in v and not _ref76(v['requiredDuringSchedulingIgnoredDuringExecution']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _ref86(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C71.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _extra17(v['operator']):
            return False
        if 'values' in v and not _prop36(v['values']):
            return False
        if not _C72.issuperset(v):
            return False
    return True


def _prop87(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref86, v)):
        return False
    return True


def _ref85(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'matchExpressions' in v and not _prop87(v['matchExpressions']):
            return False
        if 'matchLabels' in v and not _prop56(v['matchLabels']):
            return False
        if not _C88.issuperset(v):
            return False
    return True


def _ref83(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C84.issubset(v):
            return False
        if 'labelSelector' in v and not _ref85(v['labelSelector']):
            return False
        if 'matchLabelKeys' in v and not _prop36(v['matchLabelKeys']):
            return False
        if 'mismatchLabelKeys' in v and not _prop36(v['mismatchLabelKeys']):
            return False
        if 'namespaceSelector' in v and not _ref85(v['namespaceSelector']):
            return False
        if 'namespaces' in v and not _prop36(v['namespaces']):
            return False
        if 'topologyKey' in v and not _extra17(v['topologyKey']):
            return False
        if not _C89.issuperset(v):
            return False
    return True


def _ref81(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C82.issubset(v):
            return False
        if 'podAffinityTerm' in v and not _ref83(v['podAffinityTerm']):
            return False
        if 'weight' in v and not _prop61(v['weight']):
            return False
        if not _C82.issuperset(v):
            return False
    return True


def _prop90(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref81, v)):
        return False
    return True


def _prop91(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref83, v)):
        return False
    return True


def _ref80(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'preferredDuringSchedulingIgnoredDuringExecution' in v and not _prop90(v['preferredDuringSchedulingIgnoredDuringExecution']):
            return False
        if 'requiredDuringSchedulingIgnoredDuringExecution' in v and not _prop91(v['requiredDuringSchedulingIgnoredDuringExecution']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _ref92(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'preferredDuringSchedulingIgnoredDuringExecution' in v and not _prop90(v['preferredDuringSchedulingIgnoredDuringExecution']):
            return False
        if 'requiredDuringSchedulingIgnoredDuringExecution' in v and not _prop91(v['requiredDuringSchedulingIgnoredDuringExecution']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _ref65(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'nodeAffinity' in v and not _ref66(v['nodeAffinity']):
            return False
        if 'podAffinity' in v and not _ref80(v['podAffinity']):
            return False
        if 'podAntiAffinity' in v and not _ref92(v['podAntiAffinity']):
            return False
        if not _C93.issuperset(v):
            return False
    return True


def _ref94(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C95.issubset(v):
            return False
        if 'labelSelector' in v and not _ref85(v['labelSelector']):
            return False
        if 'matchLabelKeys' in v and not _prop36(v['matchLabelKeys']):
            return False
        if 'maxSkew' in v and not _prop61(v['maxSkew']):
            return False
        if 'minDomains' in v and not _prop61(v['minDomains']):
            return False
        if 'nodeAffinityPolicy' in v and not _extra17(v['nodeAffinityPolicy']):
            return False
        if 'nodeTaintsPolicy' in v and not _extra17(v['nodeTaintsPolicy']):
            return False
        if 'topologyKey' in v and not _extra17(v['topologyKey']):
            return False
        if 'whenUnsatisfiable' in v and not _extra17(v['whenUnsatisfiable']):
            return False
        if not _C96.issuperset(v):
            return False
    return True


def _prop97(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref94, v)):
        return False
    return True


def _ref99(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C100.issubset(v):
            return False
        if 'localhostProfile' in v and not _extra17(v['localhostProfile']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if not _C101.issuperset(v):
            return False
    return True


def _ref102(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'add' in v and not _prop36(v['add']):
            return False
        if 'drop' in v and not _prop36(v['drop']):
            return False
        if not _C103.issuperset(v):
            return False
    return True


def _ref104(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'level' in v and not _extra17(v['level']):
            return False
        if 'role' in v and not _extra17(v['role']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if not _C105.issuperset(v):
            return False
    return True


def _ref106(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C100.issubset(v):
            return False
        if 'localhostProfile' in v and not _extra17(v['localhostProfile']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if not _C101.issuperset(v):
            return False
    return True


def _ref107(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gmsaCredentialSpec' in v and not _extra17(v['gmsaCredentialSpec']):
            return False
        if 'gmsaCredentialSpecName' in v and not _extra17(v['gmsaCredentialSpecName']):
            return False
        if 'hostProcess' in v and not _prop39(v['hostProcess']):
            return False
        if 'runAsUserName' in v and not _extra17(v['runAsUserName']):
            return False
        if not _C108.issuperset(v):
            return False
    return True


def _ref98(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'allowPrivilegeEscalation' in v and not _prop39(v['allowPrivilegeEscalation']):
            return False
        if 'appArmorProfile' in v and not _ref99(v['appArmorProfile']):
            return False
        if 'capabilities' in v and not _ref102(v['capabilities']):
            return False
        if 'privileged' in v and not _prop39(v['privileged']):
            return False
        if 'procMount' in v and not _extra17(v['procMount']):
            return False
        if 'readOnlyRootFilesystem' in v and not _prop39(v['readOnlyRootFilesystem']):
            return False
        if 'runAsGroup' in v and not _prop61(v['runAsGroup']):
            return False
        if 'runAsNonRoot' in v and not _prop39(v['runAsNonRoot']):
            return False
        if 'runAsUser' in v and not _prop61(v['runAsUser']):
            return False
        if 'seLinuxOptions' in v and not _ref104(v['seLinuxOptions']):
            return False
        if 'seccompProfile' in v and not _ref106(v['seccompProfile']):
            return False
        if 'windowsOptions' in v and not _ref107(v['windowsOptions']):
            return False
        if not _C109.issuperset(v):
            return False
    return True


def _prop111(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_prop61, v)):
        return False
    return True


def _ref112(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C113.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if not _C113.issuperset(v):
            return False
    return True


def _prop114(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref112, v)):
        return False
    return True


def _ref110(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'appArmorProfile' in v and not _ref99(v['appArmorProfile']):
            return False
        if 'fsGroup' in v and not _prop61(v['fsGroup']):
            return False
        if 'fsGroupChangePolicy' in v and not _extra17(v['fsGroupChangePolicy']):
            return False
        if 'runAsGroup' in v and not _prop61(v['runAsGroup']):
            return False
        if 'runAsNonRoot' in v and not _prop39(v['runAsNonRoot']):
            return False
        if 'runAsUser' in v and not _prop61(v['runAsUser']):
            return False
        if 'seLinuxChangePolicy' in v and not _extra17(v['seLinuxChangePolicy']):
            return False
        if 'seLinuxOptions' in v and not _ref104(v['seLinuxOptions']):
            return False
        if 'seccompProfile' in v and not _ref106(v['seccompProfile']):
            return False
        if 'supplementalGroups' in v and not _prop111(v['supplementalGroups']):
            return False
        if 'supplementalGroupsPolicy' in v and not _extra17(v['supplementalGroupsPolicy']):
            return False
        if 'sysctls' in v and not _prop114(v['sysctls']):
            return False
        if 'windowsOptions' in v and not _ref107(v['windowsOptions']):
            return False
        if not _C115.issuperset(v):
            return False
    return True


def _prop117(v):
    if not (type(v) is str and v in _C116):
        return False
    return True


def _ref118(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C119.issubset(v):
            return False
        if 'containerPort' in v and not _prop61(v['containerPort']):
            return False
        if 'hostIP' in v and not _extra17(v['hostIP']):
            return False
        if 'hostPort' in v and not _prop61(v['hostPort']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'protocol' in v and not _extra17(v['protocol']):
            return False
        if not _C120.issuperset(v):
            return False
    return True


def _prop121(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref118, v)):
        return False
    return True


def _ref123(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'command' in v and not _prop36(v['command']):
            return False
        if not _C124.issuperset(v):
            return False
    return True


def _ref125(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C126.issubset(v):
            return False
        if 'port' in v and not _prop61(v['port']):
            return False
        if 'service' in v and not _extra17(v['service']):
            return False
        if not _C127.issuperset(v):
            return False
    return True


def _ref129(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C113.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if not _C113.issuperset(v):
            return False
    return True


def _prop130(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref129, v)):
        return False
    return True


def _ref131(v):
    if [_prop61(v), _extra17(v)].count(True) != 1:
        return False
    return True


def _ref128(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C126.issubset(v):
            return False
        if 'host' in v and not _extra17(v['host']):
            return False
        if 'httpHeaders' in v and not _prop130(v['httpHeaders']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'port' in v and not _ref131(v['port']):
            return False
        if 'scheme' in v and not _extra17(v['scheme']):
            return False
        if not _C132.issuperset(v):
            return False
    return True


def _ref133(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C126.issubset(v):
            return False
        if 'host' in v and not _extra17(v['host']):
            return False
        if 'port' in v and not _ref131(v['port']):
            return False
        if not _C134.issuperset(v):
            return False
    return True


def _ref122(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'exec' in v and not _ref123(v['exec']):
            return False
        if 'failureThreshold' in v and not _prop61(v['failureThreshold']):
            return False
        if 'grpc' in v and not _ref125(v['grpc']):
            return False
        if 'httpGet' in v and not _ref128(v['httpGet']):
            return False
        if 'initialDelaySeconds' in v and not _prop61(v['initialDelaySeconds']):
            return False
        if 'periodSeconds' in v and not _prop61(v['periodSeconds']):
            return False
        if 'successThreshold' in v and not _prop61(v['successThreshold']):
            return False
        if 'tcpSocket' in v and not _ref133(v['tcpSocket']):
            return False
        if 'terminationGracePeriodSeconds' in v and not _prop61(v['terminationGracePeriodSeconds']):
            return False
        if 'timeoutSeconds' in v and not _prop61(v['timeoutSeconds']):
            return False
        if not _C135.issuperset(v):
            return False
    return True


def _ref136(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'resourceClaimName' in v and not _extra17(v['resourceClaimName']):
            return False
        if 'resourceClaimTemplateName' in v and not _extra17(v['resourceClaimTemplateName']):
            return False
        if not _C137.issuperset(v):
            return False
    return True


def _prop138(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref136, v)):
        return False
    return True


def _ref142(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C143.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C144.issuperset(v):
            return False
    return True


def _ref145(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C146.issubset(v):
            return False
        if 'apiVersion' in v and not _extra17(v['apiVersion']):
            return False
        if 'fieldPath' in v and not _extra17(v['fieldPath']):
            return False
        if not _C147.issuperset(v):
            return False
    return True


def _ref148(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C149.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if not _C150.issuperset(v):
            return False
    return True


def _ref153(v):
    if [_extra17(v), _any50(v)].count(True) != 1:
        return False
    return True


def _ref151(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C152.issubset(v):
            return False
        if 'containerName' in v and not _extra17(v['containerName']):
            return False
        if 'divisor' in v and not _ref153(v['divisor']):
            return False
        if 'resource' in v and not _extra17(v['resource']):
            return False
        if not _C154.issuperset(v):
            return False
    return True


def _ref155(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C143.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C144.issuperset(v):
            return False
    return True


def _ref141(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'configMapKeyRef' in v and not _ref142(v['configMapKeyRef']):
            return False
        if 'fieldRef' in v and not _ref145(v['fieldRef']):
            return False
        if 'fileKeyRef' in v and not _ref148(v['fileKeyRef']):
            return False
        if 'resourceFieldRef' in v and not _ref151(v['resourceFieldRef']):
            return False
        if 'secretKeyRef' in v and not _ref155(v['secretKeyRef']):
            return False
        if not _C156.issuperset(v):
            return False
    return True


def _ref140(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if 'valueFrom' in v and not _ref141(v['valueFrom']):
            return False
        if not _C157.issuperset(v):
            return False
    return True


def _prop158(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref140, v)):
        return False
    return True


def _ref161(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C162.issubset(v):
            return False
        if 'seconds' in v and not _prop61(v['seconds']):
            return False
        if not _C162.issuperset(v):
            return False
    return True


def _ref160(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'exec' in v and not _ref123(v['exec']):
            return False
        if 'httpGet' in v and not _ref128(v['httpGet']):
            return False
        if 'sleep' in v and not _ref161(v['sleep']):
            return False
        if 'tcpSocket' in v and not _ref133(v['tcpSocket']):
            return False
        if not _C163.issuperset(v):
            return False
    return True


def _ref159(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'postStart' in v and not _ref160(v['postStart']):
            return False
        if 'preStop' in v and not _ref160(v['preStop']):
            return False
        if 'stopSignal' in v and not _extra17(v['stopSignal']):
            return False
        if not _C164.issuperset(v):
            return False
    return True


def _ref165(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C166.issubset(v):
            return False
        if 'resourceName' in v and not _extra17(v['resourceName']):
            return False
        if 'restartPolicy' in v and not _extra17(v['restartPolicy']):
            return False
        if not _C166.issuperset(v):
            return False
    return True


def _prop167(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref165, v)):
        return False
    return True


def _ref169(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'request' in v and not _extra17(v['request']):
            return False
        if not _C170.issuperset(v):
            return False
    return True


def _prop171(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref169, v)):
        return False
    return True


def _prop172(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref153(x):
                return False
    return True


def _ref168(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'claims' in v and not _prop171(v['claims']):
            return False
        if 'limits' in v and not _prop172(v['limits']):
            return False
        if 'requests' in v and not _prop172(v['requests']):
            return False
        if not _C173.issuperset(v):
            return False
    return True


def _ref176(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C177.issubset(v):
            return False
        if 'operator' in v and not _extra17(v['operator']):
            return False
        if 'values' in v and not _prop111(v['values']):
            return False
        if not _C178.issuperset(v):
            return False
    return True


def _ref174(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C175.issubset(v):
            return False
        if 'action' in v and not _extra17(v['action']):
            return False
        if 'exitCodes' in v and not _ref176(v['exitCodes']):
            return False
        if not _C179.issuperset(v):
            return False
    return True


def _prop180(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref174, v)):
        return False
    return True


def _ref181(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C182.issubset(v):
            return False
        if 'devicePath' in v and not _extra17(v['devicePath']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if not _C182.issuperset(v):
            return False
    return True


def _prop183(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref181, v)):
        return False
    return True


def _ref184(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C185.issubset(v):
            return False
        if 'mountPath' in v and not _extra17(v['mountPath']):
            return False
        if 'mountPropagation' in v and not _extra17(v['mountPropagation']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'recursiveReadOnly' in v and not _extra17(v['recursiveReadOnly']):
            return False
        if 'subPath' in v and not _extra17(v['subPath']):
            return False
        if 'subPathExpr' in v and not _extra17(v['subPathExpr']):
            return False
        if not _C186.issuperset(v):
            return False
    return True


def _prop187(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref184, v)):
        return False
    return True


def _ref139(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'args' in v and not _prop36(v['args']):
            return False
        if 'command' in v and not _prop36(v['command']):
            return False
        if 'env' in v and not _prop158(v['env']):
            return False
        if 'envFrom' in v and not _prop43(v['envFrom']):
            return False
        if 'image' in v and not _extra17(v['image']):
            return False
        if 'imagePullPolicy' in v and not _extra17(v['imagePullPolicy']):
            return False
        if 'lifecycle' in v and not _ref159(v['lifecycle']):
            return False
        if 'livenessProbe' in v and not _ref122(v['livenessProbe']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'ports' in v and not _prop121(v['ports']):
            return False
        if 'readinessProbe' in v and not _ref122(v['readinessProbe']):
            return False
        if 'resizePolicy' in v and not _prop167(v['resizePolicy']):
            return False
        if 'resources' in v and not _ref168(v['resources']):
            return False
        if 'restartPolicy' in v and not _extra17(v['restartPolicy']):
            return False
        if 'restartPolicyRules' in v and not _prop180(v['restartPolicyRules']):
            return False
        if 'securityContext' in v and not _ref98(v['securityContext']):
            return False
        if 'startupProbe' in v and not _ref122(v['startupProbe']):
            return False
        if 'stdin' in v and not _prop39(v['stdin']):
            return False
        if 'stdinOnce' in v and not _prop39(v['stdinOnce']):
            return False
        if 'terminationMessagePath' in v and not _extra17(v['terminationMessagePath']):
            return False
        if 'terminationMessagePolicy' in v and not _extra17(v['terminationMessagePolicy']):
            return False
        if 'tty' in v and not _prop39(v['tty']):
            return False
        if 'volumeDevices' in v and not _prop183(v['volumeDevices']):
            return False
        if 'volumeMounts' in v and not _prop187(v['volumeMounts']):
            return False
        if 'workingDir' in v and not _extra17(v['workingDir']):
            return False
        if not _C188.issuperset(v):
            return False
    return True


def _prop189(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref139, v)):
        return False
    return True


def _prop191(v):
    if not (type(v) is dict):
        return False
    return True


def _prop192(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'labels' in v and not _prop191(v['labels']):
            return False
        if 'annotations' in v and not _prop191(v['annotations']):
            return False
    return True


def _ref190(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'metadata' in v and not _prop192(v['metadata']):
            return False
        if 'spec' in v and not _prop191(v['spec']):
            return False
    return True


def _ref194(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any195(v):
    if not (v is None):
        return False
    return True


def _prop196(v):
    if not (_ref194(v) or _any195(v)):
        return False
    return True


def _ref197(v):
    if not (type(v) is list):
        return False
    if type(v) is list and (len(v) < 1):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop198(v):
    if not (_ref197(v) or _any195(v)):
        return False
    return True


def _ref199(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop200(v):
    if not (_ref199(v) or _any195(v)):
        return False
    return True


def _prop204(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C203.issubset(v):
            return False
        if 'name' in v and not _prop31(v['name']):
            return False
        if 'key' in v and not _prop31(v['key']):
            return False
        if not _C203.issuperset(v):
            return False
    return True


def _any205(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C202.issubset(v):
            return False
        if 'secretKeyRef' in v and not _prop204(v['secretKeyRef']):
            return False
        if not _C202.issuperset(v):
            return False
    return True


def _extra206(v):
    if not (_extra17(v) or _prop61(v) or _any205(v)):
        return False
    return True


def _names208(v):
    if type(v) is str and (_P207.search(v) is None):
        return False
    return True


def _ref201(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra206(x):
                return False
        if not all(map(_names208, v)):
            return False
    return True


def _prop209(v):
    if not (_ref201(v) or _any195(v)):
        return False
    return True


def _ref210(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref37, v)):
        return False
    return True


def _prop211(v):
    if not (_ref210(v) or _any195(v)):
        return False
    return True


def _ref212(v):
    if not _ref45(v):
        return False
    return True


def _prop213(v):
    if not (_ref212(v) or _any195(v)):
        return False
    return True


def _ref214(v):
    if not (type(v) is str):
        return False
    return True


def _prop215(v):
    if not (_ref214(v) or _any195(v)):
        return False
    return True


def _ref216(v):
    if not (type(v) is str and v in _C32):
        return False
    return True


def _prop217(v):
    if not (_ref216(v) or _any195(v)):
        return False
    return True


def _ref218(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_prop31, v)):
        return False
    return True


def _prop219(v):
    if not (_ref218(v) or _any195(v)):
        return False
    return True


def _ref220(v):
    if not (type(v) is str):
        return False
    return True


def _prop221(v):
    if not (_ref220(v) or _any195(v)):
        return False
    return True


def _ref222(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P223.search(v) is None):
        return False
    return True


def _prop224(v):
    if not (_ref222(v) or _any195(v)):
        return False
    return True


def _ref225(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra13(x):
                return False
        if not all(map(_names15, v)):
            return False
    return True


def _prop226(v):
    if not (_ref225(v) or _any195(v)):
        return False
    return True


def _ref227(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
        if not all(map(_names15, v)):
            return False
    return True


def _prop228(v):
    if not (_ref227(v) or _any195(v)):
        return False
    return True


def _ref229(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
    return True


def _prop230(v):
    if not (_ref229(v) or _any195(v)):
        return False
    return True


def _ref231(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item63, v)):
        return False
    return True


def _prop232(v):
    if not (_ref231(v) or _any195(v)):
        return False
    return True


def _ref233(v):
    if not _ref65(v):
        return False
    return True


def _prop234(v):
    if not (_ref233(v) or _any195(v)):
        return False
    return True


def _ref235(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref94, v)):
        return False
    return True


def _prop236(v):
    if not (_ref235(v) or _any195(v)):
        return False
    return True


def _ref237(v):
    if not _ref98(v):
        return False
    return True


def _prop238(v):
    if not (_ref237(v) or _any195(v)):
        return False
    return True


def _ref239(v):
    if not _ref110(v):
        return False
    return True


def _prop240(v):
    if not (_ref239(v) or _any195(v)):
        return False
    return True


def _ref241(v):
    if not (type(v) is bool):
        return False
    return True


def _prop242(v):
    if not (_ref241(v) or _any195(v)):
        return False
    return True


def _ref243(v):
    if not (type(v) is str and v in _C116):
        return False
    return True


def _prop244(v):
    if not (_ref243(v) or _any195(v)):
        return False
    return True


def _ref245(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop246(v):
    if not (_ref245(v) or _any195(v)):
        return False
    return True


def _ref247(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref118, v)):
        return False
    return True


def _prop248(v):
    if not (_ref247(v) or _any195(v)):
        return False
    return True


def _ref249(v):
    if not _ref122(v):
        return False
    return True


def _prop250(v):
    if not (_ref249(v) or _any195(v)):
        return False
    return True


def _ref251(v):
    if not _ref122(v):
        return False
    return True


def _prop252(v):
    if not (_ref251(v) or _any195(v)):
        return False
    return True


def _ref253(v):
    if not _ref122(v):
        return False
    return True


def _prop254(v):
    if not (_ref253(v) or _any195(v)):
        return False
    return True


def _ref255(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref136, v)):
        return False
    return True


def _prop256(v):
    if not (_ref255(v) or _any195(v)):
        return False
    return True


def _any258(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P223.search(v) is None):
        return False
    return True


def _ref259(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C260.issubset(v):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if not _C261.issuperset(v):
            return False
    return True


def _prop262(v):
    if not (_any258(v) or _ref259(v)):
        return False
    return True


def _prop264(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P263.search(v) is None):
        return False
    return True


def _prop266(v):
    if not (type(v) is str and v in _C265):
        return False
    return True


def _prop268(v):
    if not (type(v) is str and v in _C267):
        return False
    return True


def _ref271(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C272.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'partition' in v and not _prop61(v['partition']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'volumeID' in v and not _extra17(v['volumeID']):
            return False
        if not _C273.issuperset(v):
            return False
    return True


def _ref274(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C275.issubset(v):
            return False
        if 'cachingMode' in v and not _extra17(v['cachingMode']):
            return False
        if 'diskName' in v and not _extra17(v['diskName']):
            return False
        if 'diskURI' in v and not _extra17(v['diskURI']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'kind' in v and not _extra17(v['kind']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if not _C276.issuperset(v):
            return False
    return True


def _ref277(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C278.issubset(v):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretName' in v and not _extra17(v['secretName']):
            return False
        if 'shareName' in v and not _extra17(v['shareName']):
            return False
        if not _C279.issuperset(v):
            return False
    return True


def _ref282(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'name' in v and not _extra17(v['name']):
            return False
        if not _C6.issuperset(v):
            return False
    return True


def _ref280(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C281.issubset(v):
            return False
        if 'monitors' in v and not _prop36(v['monitors']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretFile' in v and not _extra17(v['secretFile']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if not _C283.issuperset(v):
            return False
    return True


def _ref284(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C272.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if 'volumeID' in v and not _extra17(v['volumeID']):
            return False
        if not _C285.issuperset(v):
            return False
    return True


def _ref287(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C288.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'mode' in v and not _prop61(v['mode']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if not _C289.issuperset(v):
            return False
    return True


def _prop290(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref287, v)):
        return False
    return True


def _ref286(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop61(v['defaultMode']):
            return False
        if 'items' in v and not _prop290(v['items']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C291.issuperset(v):
            return False
    return True


def _ref292(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C293.issubset(v):
            return False
        if 'driver' in v and not _extra17(v['driver']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'nodePublishSecretRef' in v and not _ref282(v['nodePublishSecretRef']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'volumeAttributes' in v and not _prop56(v['volumeAttributes']):
            return False
        if not _C294.issuperset(v):
            return False
    return True


def _ref296(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C260.issubset(v):
            return False
        if 'fieldRef' in v and not _ref145(v['fieldRef']):
            return False
        if 'mode' in v and not _prop61(v['mode']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'resourceFieldRef' in v and not _ref151(v['resourceFieldRef']):
            return False
        if not _C297.issuperset(v):
            return False
    return True


def _prop298(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref296, v)):
        return False
    return True


def _ref295(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop61(v['defaultMode']):
            return False
        if 'items' in v and not _prop298(v['items']):
            return False
        if not _C299.issuperset(v):
            return False
    return True


def _ref300(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'medium' in v and not _extra17(v['medium']):
            return False
        if 'sizeLimit' in v and not _ref153(v['sizeLimit']):
            return False
        if not _C301.issuperset(v):
            return False
    return True


def _ref306(v):
    if not (type(v) is str):
        return False
    return True


def _ref308(v):
    if not (type(v) is dict):
        return False
    return True


def _ref307(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'apiVersion' in v and not _extra17(v['apiVersion']):
            return False
        if 'fieldsType' in v and not _extra17(v['fieldsType']):
            return False
        if 'fieldsV1' in v and not _ref308(v['fieldsV1']):
            return False
        if 'manager' in v and not _extra17(v['manager']):
            return False
        if 'operation' in v and not _extra17(v['operation']):
            return False
        if 'subresource' in v and not _extra17(v['subresource']):
            return False
        if 'time' in v and not _ref306(v['time']):
            return False
        if not _C309.issuperset(v):
            return False
    return True


def _prop310(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref307, v)):
        return False
    return True


def _ref311(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C312.issubset(v):
            return False
        if 'apiVersion' in v and not _extra17(v['apiVersion']):
            return False
        if 'blockOwnerDeletion' in v and not _prop39(v['blockOwnerDeletion']):
            return False
        if 'controller' in v and not _prop39(v['controller']):
            return False
        if 'kind' in v and not _extra17(v['kind']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'uid' in v and not _extra17(v['uid']):
            return False
        if not _C313.issuperset(v):
            return False
    return True


def _prop314(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref311, v)):
        return False
    return True


def _ref305(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'annotations' in v and not _prop56(v['annotations']):
            return False
        if 'creationTimestamp' in v and not _ref306(v['creationTimestamp']):
            return False
        if 'deletionGracePeriodSeconds' in v and not _prop61(v['deletionGracePeriodSeconds']):
            return False
        if 'deletionTimestamp' in v and not _ref306(v['deletionTimestamp']):
            return False
        if 'finalizers' in v and not _prop36(v['finalizers']):
            return False
        if 'generateName' in v and not _extra17(v['generateName']):
            return False
        if 'generation' in v and not _prop61(v['generation']):
            return False
        if 'labels' in v and not _prop56(v['labels']):
            return False
        if 'managedFields' in v and not _prop310(v['managedFields']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'namespace' in v and not _extra17(v['namespace']):
            return False
        if 'ownerReferences' in v and not _prop314(v['ownerReferences']):
            return False
        if 'resourceVersion' in v and not _extra17(v['resourceVersion']):
            return False
        if 'selfLink' in v and not _extra17(v['selfLink']):
            return False
        if 'uid' in v and not _extra17(v['uid']):
            return False
        if not _C315.issuperset(v):
            return False
    return True


def _ref317(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C28.issubset(v):
            return False
        if 'apiGroup' in v and not _extra17(v['apiGroup']):
            return False
        if 'kind' in v and not _extra17(v['kind']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if not _C318.issuperset(v):
            return False
    return True


def _ref319(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C28.issubset(v):
            return False
        if 'apiGroup' in v and not _extra17(v['apiGroup']):
            return False
        if 'kind' in v and not _extra17(v['kind']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'namespace' in v and not _extra17(v['namespace']):
            return False
        if not _C320.issuperset(v):
            return False
    return True


def _ref321(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'limits' in v and not _prop172(v['limits']):
            return False
        if 'requests' in v and not _prop172(v['requests']):
            return False
        if not _C322.issuperset(v):
            return False
    return True


def _ref316(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'accessModes' in v and not _prop36(v['accessModes']):
            return False
        if 'dataSource' in v and not _ref317(v['dataSource']):
            return False
        if 'dataSourceRef' in v and not _ref319(v['dataSourceRef']):
            return False
        if 'resources' in v and not _ref321(v['resources']):
            return False
        if 'selector' in v and not _ref85(v['selector']):
            return False
        if 'storageClassName' in v and not _extra17(v['storageClassName']):
            return False
        if 'volumeAttributesClassName' in v and not _extra17(v['volumeAttributesClassName']):
            return False
        if 'volumeMode' in v and not _extra17(v['volumeMode']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if not _C323.issuperset(v):
            return False
    return True


def _ref303(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C304.issubset(v):
            return False
        if 'metadata' in v and not _ref305(v['metadata']):
            return False
        if 'spec' in v and not _ref316(v['spec']):
            return False
        if not _C324.issuperset(v):
            return False
    return True


def _ref302(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'volumeClaimTemplate' in v and not _ref303(v['volumeClaimTemplate']):
            return False
        if not _C325.issuperset(v):
            return False
    return True


def _ref326(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'lun' in v and not _prop61(v['lun']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'targetWWNs' in v and not _prop36(v['targetWWNs']):
            return False
        if 'wwids' in v and not _prop36(v['wwids']):
            return False
        if not _C327.issuperset(v):
            return False
    return True


def _ref328(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C293.issubset(v):
            return False
        if 'driver' in v and not _extra17(v['driver']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'options' in v and not _prop56(v['options']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if not _C329.issuperset(v):
            return False
    return True


def _ref330(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'datasetName' in v and not _extra17(v['datasetName']):
            return False
        if 'datasetUUID' in v and not _extra17(v['datasetUUID']):
            return False
        if not _C331.issuperset(v):
            return False
    return True


def _ref332(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C333.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'partition' in v and not _prop61(v['partition']):
            return False
        if 'pdName' in v and not _extra17(v['pdName']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if not _C334.issuperset(v):
            return False
    return True


def _ref335(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C336.issubset(v):
            return False
        if 'directory' in v and not _extra17(v['directory']):
            return False
        if 'repository' in v and not _extra17(v['repository']):
            return False
        if 'revision' in v and not _extra17(v['revision']):
            return False
        if not _C337.issuperset(v):
            return False
    return True


def _ref338(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C339.issubset(v):
            return False
        if 'endpoints' in v and not _extra17(v['endpoints']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if not _C340.issuperset(v):
            return False
    return True


def _ref341(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'pullPolicy' in v and not _extra17(v['pullPolicy']):
            return False
        if 'reference' in v and not _extra17(v['reference']):
            return False
        if not _C342.issuperset(v):
            return False
    return True


def _ref343(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C344.issubset(v):
            return False
        if 'chapAuthDiscovery' in v and not _prop39(v['chapAuthDiscovery']):
            return False
        if 'chapAuthSession' in v and not _prop39(v['chapAuthSession']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'initiatorName' in v and not _extra17(v['initiatorName']):
            return False
        if 'iqn' in v and not _extra17(v['iqn']):
            return False
        if 'iscsiInterface' in v and not _extra17(v['iscsiInterface']):
            return False
        if 'lun' in v and not _prop61(v['lun']):
            return False
        if 'portals' in v and not _prop36(v['portals']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if 'targetPortal' in v and not _extra17(v['targetPortal']):
            return False
        if not _C345.issuperset(v):
            return False
    return True


def _ref346(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C347.issubset(v):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'server' in v and not _extra17(v['server']):
            return False
        if not _C348.issuperset(v):
            return False
    return True


def _ref349(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C350.issubset(v):
            return False
        if 'claimName' in v and not _extra17(v['claimName']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if not _C351.issuperset(v):
            return False
    return True


def _ref352(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C353.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'pdID' in v and not _extra17(v['pdID']):
            return False
        if not _C354.issuperset(v):
            return False
    return True


def _ref355(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C272.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'volumeID' in v and not _extra17(v['volumeID']):
            return False
        if not _C356.issuperset(v):
            return False
    return True


def _ref359(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C260.issubset(v):
            return False
        if 'labelSelector' in v and not _ref85(v['labelSelector']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'signerName' in v and not _extra17(v['signerName']):
            return False
        if not _C360.issuperset(v):
            return False
    return True


def _ref361(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'items' in v and not _prop290(v['items']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C362.issuperset(v):
            return False
    return True


def _ref363(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'items' in v and not _prop298(v['items']):
            return False
        if not _C364.issuperset(v):
            return False
    return True


def _ref365(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C366.issubset(v):
            return False
        if 'certificateChainPath' in v and not _extra17(v['certificateChainPath']):
            return False
        if 'credentialBundlePath' in v and not _extra17(v['credentialBundlePath']):
            return False
        if 'keyPath' in v and not _extra17(v['keyPath']):
            return False
        if 'keyType' in v and not _extra17(v['keyType']):
            return False
        if 'maxExpirationSeconds' in v and not _prop61(v['maxExpirationSeconds']):
            return False
        if 'signerName' in v and not _extra17(v['signerName']):
            return False
        if 'userAnnotations' in v and not _prop56(v['userAnnotations']):
            return False
        if not _C367.issuperset(v):
            return False
    return True


def _ref368(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'items' in v and not _prop290(v['items']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if not _C362.issuperset(v):
            return False
    return True


def _ref369(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C260.issubset(v):
            return False
        if 'audience' in v and not _extra17(v['audience']):
            return False
        if 'expirationSeconds' in v and not _prop61(v['expirationSeconds']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if not _C370.issuperset(v):
            return False
    return True


def _ref358(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'clusterTrustBundle' in v and not _ref359(v['clusterTrustBundle']):
            return False
        if 'configMap' in v and not _ref361(v['configMap']):
            return False
        if 'downwardAPI' in v and not _ref363(v['downwardAPI']):
            return False
        if 'podCertificate' in v and not _ref365(v['podCertificate']):
            return False
        if 'secret' in v and not _ref368(v['secret']):
            return False
        if 'serviceAccountToken' in v and not _ref369(v['serviceAccountToken']):
            return False
        if not _C371.issuperset(v):
            return False
    return True


def _prop372(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref358, v)):
        return False
    return True


def _ref357(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop61(v['defaultMode']):
            return False
        if 'sources' in v and not _prop372(v['sources']):
            return False
        if not _C373.issuperset(v):
            return False
    return True


def _ref374(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C375.issubset(v):
            return False
        if 'group' in v and not _extra17(v['group']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'registry' in v and not _extra17(v['registry']):
            return False
        if 'tenant' in v and not _extra17(v['tenant']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if 'volume' in v and not _extra17(v['volume']):
            return False
        if not _C376.issuperset(v):
            return False
    return True


def _ref377(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C378.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'image' in v and not _extra17(v['image']):
            return False
        if 'keyring' in v and not _extra17(v['keyring']):
            return False
        if 'monitors' in v and not _prop36(v['monitors']):
            return False
        if 'pool' in v and not _extra17(v['pool']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if not _C379.issuperset(v):
            return False
    return True


def _ref380(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C381.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'gateway' in v and not _extra17(v['gateway']):
            return False
        if 'protectionDomain' in v and not _extra17(v['protectionDomain']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if 'sslEnabled' in v and not _prop39(v['sslEnabled']):
            return False
        if 'storageMode' in v and not _extra17(v['storageMode']):
            return False
        if 'storagePool' in v and not _extra17(v['storagePool']):
            return False
        if 'system' in v and not _extra17(v['system']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if not _C382.issuperset(v):
            return False
    return True


def _ref383(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop61(v['defaultMode']):
            return False
        if 'items' in v and not _prop290(v['items']):
            return False
        if 'optional' in v and not _prop39(v['optional']):
            return False
        if 'secretName' in v and not _extra17(v['secretName']):
            return False
        if not _C384.issuperset(v):
            return False
    return True


def _ref385(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref282(v['secretRef']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if 'volumeNamespace' in v and not _extra17(v['volumeNamespace']):
            return False
        if not _C386.issuperset(v):
            return False
    return True


def _ref387(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C388.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'storagePolicyID' in v and not _extra17(v['storagePolicyID']):
            return False
        if 'storagePolicyName' in v and not _extra17(v['storagePolicyName']):
            return False
        if 'volumePath' in v and not _extra17(v['volumePath']):
            return False
        if not _C389.issuperset(v):
            return False
    return True


def _ref270(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'awsElasticBlockStore' in v and not _ref271(v['awsElasticBlockStore']):
            return False
        if 'azureDisk' in v and not _ref274(v['azureDisk']):
            return False
        if 'azureFile' in v and not _ref277(v['azureFile']):
            return False
        if 'cephfs' in v and not _ref280(v['cephfs']):
            return False
        if 'cinder' in v and not _ref284(v['cinder']):
            return False
        if 'configMap' in v and not _ref286(v['configMap']):
            return False
        if 'csi' in v and not _ref292(v['csi']):
            return False
        if 'downwardAPI' in v and not _ref295(v['downwardAPI']):
            return False
        if 'emptyDir' in v and not _ref300(v['emptyDir']):
            return False
        if 'ephemeral' in v and not _ref302(v['ephemeral']):
            return False
        if 'fc' in v and not _ref326(v['fc']):
            return False
        if 'flexVolume' in v and not _ref328(v['flexVolume']):
            return False
        if 'flocker' in v and not _ref330(v['flocker']):
            return False
        if 'gcePersistentDisk' in v and not _ref332(v['gcePersistentDisk']):
            return False
        if 'gitRepo' in v and not _ref335(v['gitRepo']):
            return False
        if 'glusterfs' in v and not _ref338(v['glusterfs']):
            return False
        if 'image' in v and not _ref341(v['image']):
            return False
        if 'iscsi' in v and not _ref343(v['iscsi']):
            return False
        if 'nfs' in v and not _ref346(v['nfs']):
            return False
        if 'persistentVolumeClaim' in v and not _ref349(v['persistentVolumeClaim']):
            return False
        if 'photonPersistentDisk' in v and not _ref352(v['photonPersistentDisk']):
            return False
        if 'portworxVolume' in v and not _ref355(v['portworxVolume']):
            return False
        if 'projected' in v and not _ref357(v['projected']):
            return False
        if 'quobyte' in v and not _ref374(v['quobyte']):
            return False
        if 'rbd' in v and not _ref377(v['rbd']):
            return False
        if 'scaleIO' in v and not _ref380(v['scaleIO']):
            return False
        if 'secret' in v and not _ref383(v['secret']):
            return False
        if 'storageos' in v and not _ref385(v['storageos']):
            return False
        if 'vsphereVolume' in v and not _ref387(v['vsphereVolume']):
            return False
    return True


def _item390(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'claimName' in v and not _prop31(v['claimName']):
            return False
        if 'hostPath' in v and not _prop262(v['hostPath']):
            return False
        if 'mountPath' in v and not _any258(v['mountPath']):
            return False
        if 'readOnly' in v and not _prop39(v['readOnly']):
            return False
        if 'subPath' in v and not _extra17(v['subPath']):
            return False
        if 'name' in v and not _prop264(v['name']):
            return False
        if 'subPathExpr' in v and not _extra17(v['subPathExpr']):
            return False
        if 'mountPropagation' in v and not _prop266(v['mountPropagation']):
            return False
        if 'recursiveReadOnly' in v and not _prop268(v['recursiveReadOnly']):
            return False
        if not _C269.issuperset(v):
            return False
    if not _ref270(v):
        return False
    return True


def _ref257(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item390, v)):
        return False
    return True


def _prop391(v):
    if not (_ref257(v) or _any195(v)):
        return False
    return True


def _ref392(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref139, v)):
        return False
    return True


def _prop393(v):
    if not (_ref392(v) or _any195(v)):
        return False
    return True


def _ref394(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref139, v)):
        return False
    return True


def _prop395(v):
    if not (_ref394(v) or _any195(v)):
        return False
    return True


def _ref396(v):
    if not _ref190(v):
        return False
    return True


def _prop397(v):
    if not (_ref396(v) or _any195(v)):
        return False
    return True


def _ref193(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop196(v['image']):
            return False
        if 'command' in v and not _prop198(v['command']):
            return False
        if 'args' in v and not _prop200(v['args']):
            return False
        if 'env' in v and not _prop209(v['env']):
            return False
        if 'envFrom' in v and not _prop211(v['envFrom']):
            return False
        if 'resources' in v and not _prop213(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop215(v['priorityClassName']):
            return False
        if 'imagePullPolicy' in v and not _prop217(v['imagePullPolicy']):
            return False
        if 'imagePullSecrets' in v and not _prop219(v['imagePullSecrets']):
            return False
        if 'serviceAccountName' in v and not _prop221(v['serviceAccountName']):
            return False
        if 'workingDir' in v and not _prop224(v['workingDir']):
            return False
        if 'labels' in v and not _prop226(v['labels']):
            return False
        if 'annotations' in v and not _prop228(v['annotations']):
            return False
        if 'nodeSelector' in v and not _prop230(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop232(v['tolerations']):
            return False
        if 'affinity' in v and not _prop234(v['affinity']):
            return False
        if 'topologySpreadConstraints' in v and not _prop236(v['topologySpreadConstraints']):
            return False
        if 'securityContext' in v and not _prop238(v['securityContext']):
            return False
        if 'podSecurityContext' in v and not _prop240(v['podSecurityContext']):
            return False
        if 'hostNetwork' in v and not _prop242(v['hostNetwork']):
            return False
        if 'dnsPolicy' in v and not _prop244(v['dnsPolicy']):
            return False
        if 'runtimeClassName' in v and not _prop246(v['runtimeClassName']):
            return False
        if 'ports' in v and not _prop248(v['ports']):
            return False
        if 'livenessProbe' in v and not _prop250(v['livenessProbe']):
            return False
        if 'readinessProbe' in v and not _prop252(v['readinessProbe']):
            return False
        if 'startupProbe' in v and not _prop254(v['startupProbe']):
            return False
        if 'resourceClaims' in v and not _prop256(v['resourceClaims']):
            return False
        if 'volumes' in v and not _prop391(v['volumes']):
            return False
        if 'initContainers' in v and not _prop393(v['initContainers']):
            return False
        if 'sidecars' in v and not _prop395(v['sidecars']):
            return False
        if 'podTemplatePatch' in v and not _prop397(v['podTemplatePatch']):
            return False
        if not _C398.issuperset(v):
            return False
    return True


def _names399(v):
    if type(v) is str and (len(v) > 63 or _P9.search(v) is None):
        return False
    return True


def _prop400(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref193(x):
                return False
        if not all(map(_names399, v)):
            return False
    return True


def _prop402(v):
    if not (type(v) is str and v in _C401):
        return False
    return True


def _prop404(v):
    if not (type(v) is str and v in _C403):
        return False
    return True


def _prop406(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'resources' in v and not _ref45(v['resources']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if not _C405.issuperset(v):
            return False
    return True


def _prop408(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'implementation' in v and not _prop402(v['implementation']):
            return False
        if 'extraArgs' in v and not _prop36(v['extraArgs']):
            return False
        if 'mpirun' in v and not _prop39(v['mpirun']):
            return False
        if 'sshAuthMountPath' in v and not _any258(v['sshAuthMountPath']):
            return False
        if 'launcherCreationPolicy' in v and not _prop404(v['launcherCreationPolicy']):
            return False
        if 'runLauncherAsWorker' in v and not _prop39(v['runLauncherAsWorker']):
            return False
        if 'launcher' in v and not _prop406(v['launcher']):
            return False
        if not _C407.issuperset(v):
            return False
    return True


def _prop410(v):
    if not (type(v) is str and v in _C409):
        return False
    return True


def _prop412(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gang' in v and not _prop410(v['gang']):
            return False
        if 'schedulerName' in v and not _prop31(v['schedulerName']):
            return False
        if 'queue' in v and not _extra17(v['queue']):
            return False
        if 'priorityClass' in v and not _extra17(v['priorityClass']):
            return False
        if 'minAvailable' in v and not _prop44(v['minAvailable']):
            return False
        if 'minResources' in v and not _ref45(v['minResources']):
            return False
        if 'scheduleTimeoutSeconds' in v and not _prop44(v['scheduleTimeoutSeconds']):
            return False
        if 'gpuTopology' in v and not _prop39(v['gpuTopology']):
            return False
        if not _C411.issuperset(v):
            return False
    return True


def _prop414(v):
    if not (type(v) is str and v in _C413):
        return False
    return True


def _prop415(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 9223372036854775807:
            return False
    return True


def _prop417(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'cleanPodPolicy' in v and not _prop414(v['cleanPodPolicy']):
            return False
        if 'ttlSecondsAfterFinished' in v and not _prop44(v['ttlSecondsAfterFinished']):
            return False
        if 'activeDeadlineSeconds' in v and not _prop415(v['activeDeadlineSeconds']):
            return False
        if 'backoffLimit' in v and not _prop44(v['backoffLimit']):
            return False
        if 'suspend' in v and not _prop39(v['suspend']):
            return False
        if not _C416.issuperset(v):
            return False
    return True


def _prop418(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra206(x):
                return False
        if not all(map(_names208, v)):
            return False
    return True


def _prop419(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item390, v)):
        return False
    return True


def _prop421(v):
    if not (type(v) is str and v in _C420):
        return False
    return True


def _prop422(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop424(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop422(v['port']):
            return False
        if 'master' in v and not _prop406(v['master']):
            return False
        if not _C423.issuperset(v):
            return False
    return True


def _prop426(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'resources' in v and not _ref45(v['resources']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if 'replicas' in v and not _prop55(v['replicas']):
            return False
        if not _C425.issuperset(v):
            return False
    return True


def _prop428(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop422(v['port']):
            return False
        if 'ps' in v and not _prop426(v['ps']):
            return False
        if 'chief' in v and not _prop406(v['chief']):
            return False
        if 'evaluator' in v and not _prop406(v['evaluator']):
            return False
        if not _C427.issuperset(v):
            return False
    return True


def _prop430(v):
    if not (type(v) is str and v in _C429):
        return False
    return True


def _prop432(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'logDir' in v and not _any258(v['logDir']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'port' in v and not _prop422(v['port']):
            return False
        if 'serviceType' in v and not _prop430(v['serviceType']):
            return False
        if not _C431.issuperset(v):
            return False
    return True


def _prop434(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'repository' in v and not _prop31(v['repository']):
            return False
        if 'revision' in v and not _prop31(v['revision']):
            return False
        if 'depth' in v and not _prop44(v['depth']):
            return False
        if 'secret' in v and not _prop31(v['secret']):
            return False
        if 'username' in v and not _extra17(v['username']):
            return False
        if 'password' in v and not _extra17(v['password']):
            return False
        if not _C433.issuperset(v):
            return False
    return True


def _prop436(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'source' in v and not _prop31(v['source']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if not _C435.issuperset(v):
            return False
    return True


def _prop438(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'mountPath' in v and not _any258(v['mountPath']):
            return False
        if 'git' in v and not _prop434(v['git']):
            return False
        if 'rsync' in v and not _prop436(v['rsync']):
            return False
        if not _C437.issuperset(v):
            return False
    return True


def _ref22(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'framework' in v and not _prop24(v['framework']):
            return False
        if 'runtime' in v and not _prop30(v['runtime']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'imagePullPolicy' in v and not _prop33(v['imagePullPolicy']):
            return False
        if 'imagePullSecrets' in v and not _prop34(v['imagePullSecrets']):
            return False
        if 'command' in v and not _prop35(v['command']):
            return False
        if 'args' in v and not _prop36(v['args']):
            return False
        if 'envFrom' in v and not _prop43(v['envFrom']):
            return False
        if 'workers' in v and not _prop44(v['workers']):
            return False
        if 'resources' in v and not _ref45(v['resources']):
            return False
        if 'slotsPerWorker' in v and not _prop55(v['slotsPerWorker']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if 'serviceAccountName' in v and not _extra17(v['serviceAccountName']):
            return False
        if 'nodeSelector' in v and not _prop56(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop64(v['tolerations']):
            return False
        if 'affinity' in v and not _ref65(v['affinity']):
            return False
        if 'topologySpreadConstraints' in v and not _prop97(v['topologySpreadConstraints']):
            return False
        if 'securityContext' in v and not _ref98(v['securityContext']):
            return False
        if 'podSecurityContext' in v and not _ref110(v['podSecurityContext']):
            return False
        if 'hostNetwork' in v and not _prop39(v['hostNetwork']):
            return False
        if 'dnsPolicy' in v and not _prop117(v['dnsPolicy']):
            return False
        if 'runtimeClassName' in v and not _prop31(v['runtimeClassName']):
            return False
        if 'ports' in v and not _prop121(v['ports']):
            return False
        if 'livenessProbe' in v and not _ref122(v['livenessProbe']):
            return False
        if 'readinessProbe' in v and not _ref122(v['readinessProbe']):
            return False
        if 'startupProbe' in v and not _ref122(v['startupProbe']):
            return False
        if 'resourceClaims' in v and not _prop138(v['resourceClaims']):
            return False
        if 'initContainers' in v and not _prop189(v['initContainers']):
            return False
        if 'sidecars' in v and not _prop189(v['sidecars']):
            return False
        if 'podTemplatePatch' in v and not _ref190(v['podTemplatePatch']):
            return False
        if 'roles' in v and not _prop400(v['roles']):
            return False
        if 'mpi' in v and not _prop408(v['mpi']):
            return False
        if 'scheduling' in v and not _prop412(v['scheduling']):
            return False
        if 'runPolicy' in v and not _prop417(v['runPolicy']):
            return False
        if 'env' in v and not _prop418(v['env']):
            return False
        if 'volumes' in v and not _prop419(v['volumes']):
            return False
        if 'workingDir' in v and not _any258(v['workingDir']):
            return False
        if 'labels' in v and not _prop16(v['labels']):
            return False
        if 'annotations' in v and not _prop18(v['annotations']):
            return False
        if 'restartPolicy' in v and not _prop421(v['restartPolicy']):
            return False
        if 'pytorch' in v and not _prop424(v['pytorch']):
            return False
        if 'tensorflow' in v and not _prop428(v['tensorflow']):
            return False
        if 'tensorboard' in v and not _prop432(v['tensorboard']):
            return False
        if 'code' in v and not _prop438(v['code']):
            return False
        if 'shmSize' in v and not _prop51(v['shmSize']):
            return False
    return True


def _ref440(v):
    if not _ref22(v):
        return False
    if type(v) is dict:
        if not _C441.issuperset(v):
            return False
    return True


def _names443(v):
    if type(v) is str and (_P442.search(v) is None):
        return False
    return True


def _prop444(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref440(x):
                return False
        if not all(map(_names443, v)):
            return False
    return True


def _ref21(v):
    if not _ref22(v):
        return False
    if type(v) is dict:
        if not _C439.issubset(v):
            return False
        if 'environments' in v and not _prop444(v['environments']):
            return False
        if not _C445.issuperset(v):
            return False
    return True


def is_valid(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C1.issubset(v):
            return False
        if 'apiVersion' in v and not _prop3(v['apiVersion']):
            return False
        if 'kind' in v and not _prop5(v['kind']):
            return False
        if 'metadata' in v and not _prop20(v['metadata']):
            return False
        if 'spec' in v and not _ref21(v['spec']):
            return False
        if not _C1.issuperset(v):
            return False
    return True
