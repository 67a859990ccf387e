"""Generated from schemas/mpigen.dev/trainingjob_v1alpha1.json by mpigen/spec/schemagen.py: do not edit.

Regenerate with `python -m mpigen.spec.schemagen`; a test fails while this file is stale.
"""
# fmt: off
from mpigen.spec.schema_runtime import Pattern as _Pattern, equal as _equal

SCHEMA = 'mpigen.dev/trainingjob_v1alpha1.json'
FINGERPRINT = (257683, 2988556929)

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
_C39 = frozenset(['name', 'optional'])
_C41 = frozenset(['configMapRef', 'prefix', 'secretRef'])
_P46 = _Pattern('^[0-9]+$')
_C51 = frozenset(['cpu', 'gpu', 'memory'])
_P52 = _Pattern('^([A-Za-z0-9][-A-Za-z0-9_.]*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')
_C56 = frozenset(['Equal', 'Exists'])
_C58 = frozenset(['NoExecute', 'NoSchedule', 'PreferNoSchedule'])
_C61 = frozenset(['effect', 'key', 'operator', 'tolerationSeconds', 'value'])
_C67 = frozenset(['preference', 'weight'])
_C70 = frozenset(['key', 'operator'])
_C71 = frozenset(['key', 'operator', 'values'])
_C73 = frozenset(['matchExpressions', 'matchFields'])
_C76 = frozenset(['nodeSelectorTerms'])
_C78 = frozenset(['preferredDuringSchedulingIgnoredDuringExecution', 'requiredDuringSchedulingIgnoredDuringExecution'])
_C81 = frozenset(['podAffinityTerm', 'weight'])
_C83 = frozenset(['topologyKey'])
_C87 = frozenset(['matchExpressions', 'matchLabels'])
_C88 = frozenset(['labelSelector', 'matchLabelKeys', 'mismatchLabelKeys', 'namespaceSelector', 'namespaces', 'topologyKey'])
_C92 = frozenset(['nodeAffinity', 'podAffinity', 'podAntiAffinity'])
_C94 = frozenset(['maxSkew', 'topologyKey', 'whenUnsatisfiable'])
_C95 = frozenset(['labelSelector', 'matchLabelKeys', 'maxSkew', 'minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy', 'topologyKey', 'whenUnsatisfiable'])
_C99 = frozenset(['type'])
_C100 = frozenset(['localhostProfile', 'type'])
_C102 = frozenset(['add', 'drop'])
_C104 = frozenset(['level', 'role', 'type', 'user'])
_C107 = frozenset(['gmsaCredentialSpec', 'gmsaCredentialSpecName', 'hostProcess', 'runAsUserName'])
_C108 = frozenset(['allowPrivilegeEscalation', 'appArmorProfile', 'capabilities', 'privileged', 'procMount', 'readOnlyRootFilesystem', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxOptions', 'seccompProfile', 'windowsOptions'])
_C112 = frozenset(['name', 'value'])
_C114 = frozenset(['appArmorProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxChangePolicy', 'seLinuxOptions', 'seccompProfile', 'supplementalGroups', 'supplementalGroupsPolicy', 'sysctls', 'windowsOptions'])
_C115 = frozenset(['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'])
_C118 = frozenset(['containerPort'])
_C119 = frozenset(['containerPort', 'hostIP', 'hostPort', 'name', 'protocol'])
_C123 = frozenset(['command'])
_C125 = frozenset(['port'])
_C126 = frozenset(['port', 'service'])
_C131 = frozenset(['host', 'httpHeaders', 'path', 'port', 'scheme'])
_C133 = frozenset(['host', 'port'])
_C134 = frozenset(['exec', 'failureThreshold', 'grpc', 'httpGet', 'initialDelaySeconds', 'periodSeconds', 'successThreshold', 'tcpSocket', 'terminationGracePeriodSeconds', 'timeoutSeconds'])
_C136 = frozenset(['name', 'resourceClaimName', 'resourceClaimTemplateName'])
_C142 = frozenset(['key'])
_C143 = frozenset(['key', 'name', 'optional'])
_C145 = frozenset(['fieldPath'])
_C146 = frozenset(['apiVersion', 'fieldPath'])
_C148 = frozenset(['key', 'path', 'volumeName'])
_C149 = frozenset(['key', 'optional', 'path', 'volumeName'])
_C151 = frozenset(['resource'])
_C153 = frozenset(['containerName', 'divisor', 'resource'])
_C155 = frozenset(['configMapKeyRef', 'fieldRef', 'fileKeyRef', 'resourceFieldRef', 'secretKeyRef'])
_C156 = frozenset(['name', 'value', 'valueFrom'])
_C161 = frozenset(['seconds'])
_C162 = frozenset(['exec', 'httpGet', 'sleep', 'tcpSocket'])
_C163 = frozenset(['postStart', 'preStop', 'stopSignal'])
_C165 = frozenset(['resourceName', 'restartPolicy'])
_C169 = frozenset(['name', 'request'])
_C172 = frozenset(['claims', 'limits', 'requests'])
_C174 = frozenset(['action'])
_C176 = frozenset(['operator'])
_C177 = frozenset(['operator', 'values'])
_C178 = frozenset(['action', 'exitCodes'])
_C181 = frozenset(['devicePath', 'name'])
_C184 = frozenset(['mountPath', 'name'])
_C185 = frozenset(['mountPath', 'mountPropagation', 'name', 'readOnly', 'recursiveReadOnly', 'subPath', 'subPathExpr'])
_C187 = frozenset(['args', 'command', 'env', 'envFrom', 'image', 'imagePullPolicy', 'lifecycle', 'livenessProbe', 'name', 'ports', 'readinessProbe', 'resizePolicy', 'resources', 'restartPolicy', 'restartPolicyRules', 'securityContext', 'startupProbe', 'stdin', 'stdinOnce', 'terminationMessagePath', 'terminationMessagePolicy', 'tty', 'volumeDevices', 'volumeMounts', 'workingDir'])
_C203 = frozenset(['secretKeyRef'])
_C204 = frozenset(['key', 'name'])
_P208 = _Pattern('^[-._a-zA-Z][-._a-zA-Z0-9]*$')
_P224 = _Pattern('^/')
_C261 = frozenset(['path'])
_C262 = frozenset(['path', 'type'])
_P264 = _Pattern('^[a-z]([-a-z0-9]*[a-z0-9])?$')
_C266 = frozenset(['Bidirectional', 'HostToContainer', 'None'])
_C268 = frozenset(['Disabled', 'Enabled', 'IfPossible'])
_C270 = frozenset(['awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'claimName', 'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'image', 'iscsi', 'mountPath', 'mountPropagation', 'name', 'nfs', 'persistentVolumeClaim', 'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'readOnly', 'recursiveReadOnly', 'scaleIO', 'secret', 'storageos', 'subPath', 'subPathExpr', 'vsphereVolume'])
_C273 = frozenset(['volumeID'])
_C274 = frozenset(['fsType', 'partition', 'readOnly', 'volumeID'])
_C276 = frozenset(['diskName', 'diskURI'])
_C277 = frozenset(['cachingMode', 'diskName', 'diskURI', 'fsType', 'kind', 'readOnly'])
_C279 = frozenset(['secretName', 'shareName'])
_C280 = frozenset(['readOnly', 'secretName', 'shareName'])
_C282 = frozenset(['monitors'])
_C284 = frozenset(['monitors', 'path', 'readOnly', 'secretFile', 'secretRef', 'user'])
_C286 = frozenset(['fsType', 'readOnly', 'secretRef', 'volumeID'])
_C289 = frozenset(['key', 'path'])
_C290 = frozenset(['key', 'mode', 'path'])
_C292 = frozenset(['defaultMode', 'items', 'name', 'optional'])
_C294 = frozenset(['driver'])
_C295 = frozenset(['driver', 'fsType', 'nodePublishSecretRef', 'readOnly', 'volumeAttributes'])
_C298 = frozenset(['fieldRef', 'mode', 'path', 'resourceFieldRef'])
_C300 = frozenset(['defaultMode', 'items'])
_C302 = frozenset(['medium', 'sizeLimit'])
_C305 = frozenset(['spec'])
_C310 = frozenset(['apiVersion', 'fieldsType', 'fieldsV1', 'manager', 'operation', 'subresource', 'time'])
_C313 = frozenset(['apiVersion', 'kind', 'name', 'uid'])
_C314 = frozenset(['apiVersion', 'blockOwnerDeletion', 'controller', 'kind', 'name', 'uid'])
_C316 = frozenset(['annotations', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'finalizers', 'generateName', 'generation', 'labels', 'managedFields', 'name', 'namespace', 'ownerReferences', 'resourceVersion', 'selfLink', 'uid'])
_C319 = frozenset(['apiGroup', 'kind', 'name'])
_C321 = frozenset(['apiGroup', 'kind', 'name', 'namespace'])
_C323 = frozenset(['limits', 'requests'])
_C324 = frozenset(['accessModes', 'dataSource', 'dataSourceRef', 'resources', 'selector', 'storageClassName', 'volumeAttributesClassName', 'volumeMode', 'volumeName'])
_C325 = frozenset(['metadata', 'spec'])
_C326 = frozenset(['volumeClaimTemplate'])
_C328 = frozenset(['fsType', 'lun', 'readOnly', 'targetWWNs', 'wwids'])
_C330 = frozenset(['driver', 'fsType', 'options', 'readOnly', 'secretRef'])
_C332 = frozenset(['datasetName', 'datasetUUID'])
_C334 = frozenset(['pdName'])
_C335 = frozenset(['fsType', 'partition', 'pdName', 'readOnly'])
_C337 = frozenset(['repository'])
_C338 = frozenset(['directory', 'repository', 'revision'])
_C340 = frozenset(['endpoints', 'path'])
_C341 = frozenset(['endpoints', 'path', 'readOnly'])
_C343 = frozenset(['pullPolicy', 'reference'])
_C345 = frozenset(['iqn', 'lun', 'targetPortal'])
_C346 = frozenset(['chapAuthDiscovery', 'chapAuthSession', 'fsType', 'initiatorName', 'iqn', 'iscsiInterface', 'lun', 'portals', 'readOnly', 'secretRef', 'targetPortal'])
_C348 = frozenset(['path', 'server'])
_C349 = frozenset(['path', 'readOnly', 'server'])
_C351 = frozenset(['claimName'])
_C352 = frozenset(['claimName', 'readOnly'])
_C354 = frozenset(['pdID'])
_C355 = frozenset(['fsType', 'pdID'])
_C357 = frozenset(['fsType', 'readOnly', 'volumeID'])
_C361 = frozenset(['labelSelector', 'name', 'optional', 'path', 'signerName'])
_C363 = frozenset(['items', 'name', 'optional'])
_C365 = frozenset(['items'])
_C367 = frozenset(['keyType', 'signerName'])
_C368 = frozenset(['certificateChainPath', 'credentialBundlePath', 'keyPath', 'keyType', 'maxExpirationSeconds', 'signerName', 'userAnnotations'])
_C371 = frozenset(['audience', 'expirationSeconds', 'path'])
_C372 = frozenset(['clusterTrustBundle', 'configMap', 'downwardAPI', 'podCertificate', 'secret', 'serviceAccountToken'])
_C374 = frozenset(['defaultMode', 'sources'])
_C376 = frozenset(['registry', 'volume'])
_C377 = frozenset(['group', 'readOnly', 'registry', 'tenant', 'user', 'volume'])
_C379 = frozenset(['image', 'monitors'])
_C380 = frozenset(['fsType', 'image', 'keyring', 'monitors', 'pool', 'readOnly', 'secretRef', 'user'])
_C382 = frozenset(['gateway', 'secretRef', 'system'])
_C383 = frozenset(['fsType', 'gateway', 'protectionDomain', 'readOnly', 'secretRef', 'sslEnabled', 'storageMode', 'storagePool', 'system', 'volumeName'])
_C385 = frozenset(['defaultMode', 'items', 'optional', 'secretName'])
_C387 = frozenset(['fsType', 'readOnly', 'secretRef', 'volumeName', 'volumeNamespace'])
_C389 = frozenset(['volumePath'])
_C390 = frozenset(['fsType', 'storagePolicyID', 'storagePolicyName', 'volumePath'])
_C399 = frozenset(['affinity', 'annotations', 'args', 'command', 'containerName', 'dnsPolicy', 'env', 'envFrom', 'hostNetwork', 'image', 'imagePullPolicy', 'imagePullSecrets', 'initContainers', 'labels', 'livenessProbe', 'nodeSelector', 'podSecurityContext', 'podTemplatePatch', 'ports', 'priorityClassName', 'readinessProbe', 'resourceClaims', 'resources', 'runtimeClassName', 'securityContext', 'serviceAccountName', 'sidecars', 'startupProbe', 'tolerations', 'topologySpreadConstraints', 'volumes', 'workingDir'])
_C402 = frozenset(['Intel', 'MPICH', 'OpenMPI'])
_C404 = frozenset(['AtStartup', 'WaitForWorkersReady'])
_C406 = frozenset(['image', 'priorityClassName', 'resources'])
_C408 = frozenset(['extraArgs', 'implementation', 'launcher', 'launcherCreationPolicy', 'mpirun', 'runLauncherAsWorker', 'sshAuthMountPath'])
_C410 = frozenset(['kube-batch', 'kueue', 'none', 'scheduler-plugins', 'volcano'])
_C412 = frozenset(['gang', 'gpuTopology', 'minAvailable', 'minResources', 'priorityClass', 'queue', 'scheduleTimeoutSeconds', 'schedulerName'])
_C414 = frozenset(['All', 'None', 'Running'])
_C417 = frozenset(['activeDeadlineSeconds', 'backoffLimit', 'cleanPodPolicy', 'suspend', 'ttlSecondsAfterFinished'])
_C421 = frozenset(['Always', 'ExitCode', 'Never', 'OnFailure'])
_C424 = frozenset(['master', 'port'])
_C426 = frozenset(['image', 'priorityClassName', 'replicas', 'resources'])
_C428 = frozenset(['chief', 'evaluator', 'port', 'ps'])
_C430 = frozenset(['ClusterIP', 'NodePort'])
_C432 = frozenset(['image', 'logDir', 'port', 'serviceType'])
_C434 = frozenset(['depth', 'password', 'repository', 'revision', 'secret', 'username'])
_C436 = frozenset(['image', 'source'])
_C438 = frozenset(['git', 'mountPath', 'rsync'])
_C440 = frozenset(['framework', 'workers'])
_C442 = frozenset(['affinity', 'annotations', 'args', 'code', 'command', 'containerName', 'dnsPolicy', 'env', 'envFrom', 'framework', 'hostNetwork', 'image', 'imagePullPolicy', 'imagePullSecrets', 'initContainers', 'labels', 'livenessProbe', 'mpi', 'nodeSelector', 'podSecurityContext', 'podTemplatePatch', 'ports', 'priorityClassName', 'pytorch', 'readinessProbe', 'resourceClaims', 'resources', 'restartPolicy', 'roles', 'runPolicy', 'runtime', 'runtimeClassName', 'scheduling', 'securityContext', 'serviceAccountName', 'shmSize', 'sidecars', 'slotsPerWorker', 'startupProbe', 'tensorboard', 'tensorflow', 'tolerations', 'topologySpreadConstraints', 'volumes', 'workers', 'workingDir'])
_P443 = _Pattern('^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$')
_C446 = frozenset(['affinity', 'annotations', 'args', 'code', 'command', 'containerName', 'dnsPolicy', 'env', 'envFrom', 'environments', 'framework', 'hostNetwork', 'image', 'imagePullPolicy', 'imagePullSecrets', 'initContainers', 'labels', 'livenessProbe', 'mpi', 'nodeSelector', 'podSecurityContext', 'podTemplatePatch', 'ports', 'priorityClassName', 'pytorch', 'readinessProbe', 'resourceClaims', 'resources', 'restartPolicy', 'roles', 'runPolicy', 'runtime', 'runtimeClassName', 'scheduling', 'securityContext', 'serviceAccountName', 'shmSize', 'sidecars', 'slotsPerWorker', 'startupProbe', 'tensorboard', 'tensorflow', 'tolerations', 'topologySpreadConstraints', 'volumes', 'workers', 'workingDir'])
_C447 = frozenset(['runtime'])
_C449 = frozenset(['command', 'image'])

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
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop38(v):
    if not (type(v) is bool):
        return False
    return True


def _ref37(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C39.issuperset(v):
            return False
    return True


def _ref40(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C39.issuperset(v):
            return False
    return True


def _ref36(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'configMapRef' in v and not _ref37(v['configMapRef']):
            return False
        if 'prefix' in v and not _extra17(v['prefix']):
            return False
        if 'secretRef' in v and not _ref40(v['secretRef']):
            return False
        if not _C41.issuperset(v):
            return False
    return True


def _prop42(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref36, v)):
        return False
    return True


def _prop43(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _any45(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
    return True


def _any47(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P46.search(v) is None):
        return False
    return True


def _prop48(v):
    if not (_any45(v) or _any47(v)):
        return False
    return True


def _any49(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop50(v):
    if not (_prop31(v) or _any49(v)):
        return False
    return True


def _names53(v):
    if type(v) is str and (_P52.search(v) is None):
        return False
    return True


def _ref44(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gpu' in v and not _prop48(v['gpu']):
            return False
        if 'cpu' in v and not _prop50(v['cpu']):
            return False
        if 'memory' in v and not _prop50(v['memory']):
            return False
        for k, x in v.items():
            if k not in _C51 and not _prop50(x):
                return False
        if not all(map(_names53, v)):
            return False
    return True


def _prop54(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
            return False
    return True


def _prop55(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
    return True


def _prop57(v):
    if not (type(v) is str and v in _C56):
        return False
    return True


def _prop59(v):
    if not (type(v) is str and v in _C58):
        return False
    return True


def _prop60(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _item62(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _prop57(v['operator']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if 'effect' in v and not _prop59(v['effect']):
            return False
        if 'tolerationSeconds' in v and not _prop60(v['tolerationSeconds']):
            return False
        if not _C61.issuperset(v):
            return False
    return True


def _prop63(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item62, v)):
        return False
    return True


def _ref69(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C70.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _extra17(v['operator']):
            return False
        if 'values' in v and not _prop35(v['values']):
            return False
        if not _C71.issuperset(v):
            return False
    return True


def _prop72(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref69, v)):
        return False
    return True


def _ref68(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'matchExpressions' in v and not _prop72(v['matchExpressions']):
            return False
        if 'matchFields' in v and not _prop72(v['matchFields']):
            return False
        if not _C73.issuperset(v):
            return False
    return True


def _ref66(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C67.issubset(v):
            return False
        if 'preference' in v and not _ref68(v['preference']):
            return False
        if 'weight' in v and not _prop60(v['weight']):
            return False
        if not _C67.issuperset(v):
            return False
    return True


def _prop74(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref66, v)):
        return False
    return True


def _prop77(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref68, v)):
        return False
    return True


def _ref75(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C76.issubset(v):
            return False
        if 'nodeSelectorTerms' in v and not _prop77(v['nodeSelectorTerms']):
            return False
        if not _C76.issuperset(v):
            return False
    return True


def _ref65(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'preferredDuringSchedulingIgnoredDuringExecution' in v and not _prop74(v['preferredDuringSchedulingIgnoredDuringExecution']):
            return False
        if 'requiredDuringSchedulingIgnoredDuringExecution' in v and not _ref75(v['requiredDuringSchedulingIgnoredDuringExecution']):
            return False
        if not _C78.issuperset(v):
            return False
    return True


def _ref85(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C70.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _extra17(v['operator']):
            return False
        if 'values' in v and not _prop35(v['values']):
            return False
        if not _C71.issuperset(v):
            return False
    return True


def _prop86(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref85, v)):
        return False
    return True


def _ref84(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'matchExpressions' in v and not _prop86(v['matchExpressions']):
            return False
        if 'matchLabels' in v and not _prop55(v['matchLabels']):
            return False
        if not _C87.issuperset(v):
            return False
    return True


def _ref82(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C83.issubset(v):
            return False
        if 'labelSelector' in v and not _ref84(v['labelSelector']):
            return False
        if 'matchLabelKeys' in v and not _prop35(v['matchLabelKeys']):
            return False
        if 'mismatchLabelKeys' in v and not _prop35(v['mismatchLabelKeys']):
            return False
        if 'namespaceSelector' in v and not _ref84(v['namespaceSelector']):
            return False
        if 'namespaces' in v and not _prop35(v['namespaces']):
            return False
        if 'topologyKey' in v and not _extra17(v['topologyKey']):
            return False
        if not _C88.issuperset(v):
            return False
    return True


def _ref80(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C81.issubset(v):
            return False
        if 'podAffinityTerm' in v and not _ref82(v['podAffinityTerm']):
            return False
        if 'weight' in v and not _prop60(v['weight']):
            return False
        if not _C81.issuperset(v):
            return False
    return True


def _prop89(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref80, v)):
        return False
    return True


def _prop90(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref82, v)):
        return False
    return True


def _ref79(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'preferredDuringSchedulingIgnoredDuringExecution' in v and not _prop89(v['preferredDuringSchedulingIgnoredDuringExecution']):
            return False
        if 'requiredDuringSchedulingIgnoredDuringExecution' in v and not _prop90(v['requiredDuringSchedulingIgnoredDuringExecution']):
            return False
        if not _C78.issuperset(v):
            return False
    return True


def _ref91(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'preferredDuringSchedulingIgnoredDuringExecution' in v and not _prop89(v['preferredDuringSchedulingIgnoredDuringExecution']):
            return False
        if 'requiredDuringSchedulingIgnoredDuringExecution' in v and not _prop90(v['requiredDuringSchedulingIgnoredDuringExecution']):
            return False
        if not _C78.issuperset(v):
            return False
    return True


def _ref64(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'nodeAffinity' in v and not _ref65(v['nodeAffinity']):
            return False
        if 'podAffinity' in v and not _ref79(v['podAffinity']):
            return False
        if 'podAntiAffinity' in v and not _ref91(v['podAntiAffinity']):
            return False
        if not _C92.issuperset(v):
            return False
    return True


def _ref93(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C94.issubset(v):
            return False
        if 'labelSelector' in v and not _ref84(v['labelSelector']):
            return False
        if 'matchLabelKeys' in v and not _prop35(v['matchLabelKeys']):
            return False
        if 'maxSkew' in v and not _prop60(v['maxSkew']):
            return False
        if 'minDomains' in v and not _prop60(v['minDomains']):
            return False
        if 'nodeAffinityPolicy' in v and not _extra17(v['nodeAffinityPolicy']):
            return False
        if 'nodeTaintsPolicy' in v and not _extra17(v['nodeTaintsPolicy']):
            return False
        if 'topologyKey' in v and not _extra17(v['topologyKey']):
            return False
        if 'whenUnsatisfiable' in v and not _extra17(v['whenUnsatisfiable']):
            return False
        if not _C95.issuperset(v):
            return False
    return True


def _prop96(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref93, v)):
        return False
    return True


def _ref98(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C99.issubset(v):
            return False
        if 'localhostProfile' in v and not _extra17(v['localhostProfile']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if not _C100.issuperset(v):
            return False
    return True


def _ref101(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'add' in v and not _prop35(v['add']):
            return False
        if 'drop' in v and not _prop35(v['drop']):
            return False
        if not _C102.issuperset(v):
            return False
    return True


def _ref103(v):
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
        if not _C104.issuperset(v):
            return False
    return True


def _ref105(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C99.issubset(v):
            return False
        if 'localhostProfile' in v and not _extra17(v['localhostProfile']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if not _C100.issuperset(v):
            return False
    return True


def _ref106(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gmsaCredentialSpec' in v and not _extra17(v['gmsaCredentialSpec']):
            return False
        if 'gmsaCredentialSpecName' in v and not _extra17(v['gmsaCredentialSpecName']):
            return False
        if 'hostProcess' in v and not _prop38(v['hostProcess']):
            return False
        if 'runAsUserName' in v and not _extra17(v['runAsUserName']):
            return False
        if not _C107.issuperset(v):
            return False
    return True


def _ref97(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'allowPrivilegeEscalation' in v and not _prop38(v['allowPrivilegeEscalation']):
            return False
        if 'appArmorProfile' in v and not _ref98(v['appArmorProfile']):
            return False
        if 'capabilities' in v and not _ref101(v['capabilities']):
            return False
        if 'privileged' in v and not _prop38(v['privileged']):
            return False
        if 'procMount' in v and not _extra17(v['procMount']):
            return False
        if 'readOnlyRootFilesystem' in v and not _prop38(v['readOnlyRootFilesystem']):
            return False
        if 'runAsGroup' in v and not _prop60(v['runAsGroup']):
            return False
        if 'runAsNonRoot' in v and not _prop38(v['runAsNonRoot']):
            return False
        if 'runAsUser' in v and not _prop60(v['runAsUser']):
            return False
        if 'seLinuxOptions' in v and not _ref103(v['seLinuxOptions']):
            return False
        if 'seccompProfile' in v and not _ref105(v['seccompProfile']):
            return False
        if 'windowsOptions' in v and not _ref106(v['windowsOptions']):
            return False
        if not _C108.issuperset(v):
            return False
    return True


def _prop110(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_prop60, v)):
        return False
    return True


def _ref111(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C112.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if not _C112.issuperset(v):
            return False
    return True


def _prop113(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref111, v)):
        return False
    return True


def _ref109(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'appArmorProfile' in v and not _ref98(v['appArmorProfile']):
            return False
        if 'fsGroup' in v and not _prop60(v['fsGroup']):
            return False
        if 'fsGroupChangePolicy' in v and not _extra17(v['fsGroupChangePolicy']):
            return False
        if 'runAsGroup' in v and not _prop60(v['runAsGroup']):
            return False
        if 'runAsNonRoot' in v and not _prop38(v['runAsNonRoot']):
            return False
        if 'runAsUser' in v and not _prop60(v['runAsUser']):
            return False
        if 'seLinuxChangePolicy' in v and not _extra17(v['seLinuxChangePolicy']):
            return False
        if 'seLinuxOptions' in v and not _ref103(v['seLinuxOptions']):
            return False
        if 'seccompProfile' in v and not _ref105(v['seccompProfile']):
            return False
        if 'supplementalGroups' in v and not _prop110(v['supplementalGroups']):
            return False
        if 'supplementalGroupsPolicy' in v and not _extra17(v['supplementalGroupsPolicy']):
            return False
        if 'sysctls' in v and not _prop113(v['sysctls']):
            return False
        if 'windowsOptions' in v and not _ref106(v['windowsOptions']):
            return False
        if not _C114.issuperset(v):
            return False
    return True


def _prop116(v):
    if not (type(v) is str and v in _C115):
        return False
    return True


def _ref117(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C118.issubset(v):
            return False
        if 'containerPort' in v and not _prop60(v['containerPort']):
            return False
        if 'hostIP' in v and not _extra17(v['hostIP']):
            return False
        if 'hostPort' in v and not _prop60(v['hostPort']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'protocol' in v and not _extra17(v['protocol']):
            return False
        if not _C119.issuperset(v):
            return False
    return True


def _prop120(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref117, v)):
        return False
    return True


def _ref122(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'command' in v and not _prop35(v['command']):
            return False
        if not _C123.issuperset(v):
            return False
    return True


def _ref124(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C125.issubset(v):
            return False
        if 'port' in v and not _prop60(v['port']):
            return False
        if 'service' in v and not _extra17(v['service']):
            return False
        if not _C126.issuperset(v):
            return False
    return True


def _ref128(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C112.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if not _C112.issuperset(v):
            return False
    return True


def _prop129(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref128, v)):
        return False
    return True


def _ref130(v):
    if [_prop60(v), _extra17(v)].count(True) != 1:
        return False
    return True


def _ref127(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C125.issubset(v):
            return False
        if 'host' in v and not _extra17(v['host']):
            return False
        if 'httpHeaders' in v and not _prop129(v['httpHeaders']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'port' in v and not _ref130(v['port']):
            return False
        if 'scheme' in v and not _extra17(v['scheme']):
            return False
        if not _C131.issuperset(v):
            return False
    return True


def _ref132(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C125.issubset(v):
            return False
        if 'host' in v and not _extra17(v['host']):
            return False
        if 'port' in v and not _ref130(v['port']):
            return False
        if not _C133.issuperset(v):
            return False
    return True


def _ref121(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'exec' in v and not _ref122(v['exec']):
            return False
        if 'failureThreshold' in v and not _prop60(v['failureThreshold']):
            return False
        if 'grpc' in v and not _ref124(v['grpc']):
            return False
        if 'httpGet' in v and not _ref127(v['httpGet']):
            return False
        if 'initialDelaySeconds' in v and not _prop60(v['initialDelaySeconds']):
            return False
        if 'periodSeconds' in v and not _prop60(v['periodSeconds']):
            return False
        if 'successThreshold' in v and not _prop60(v['successThreshold']):
            return False
        if 'tcpSocket' in v and not _ref132(v['tcpSocket']):
            return False
        if 'terminationGracePeriodSeconds' in v and not _prop60(v['terminationGracePeriodSeconds']):
            return False
        if 'timeoutSeconds' in v and not _prop60(v['timeoutSeconds']):
            return False
        if not _C134.issuperset(v):
            return False
    return True


def _ref135(v):
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
        if not _C136.issuperset(v):
            return False
    return True


def _prop137(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref135, v)):
        return False
    return True


def _ref141(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C142.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C143.issuperset(v):
            return False
    return True


def _ref144(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C145.issubset(v):
            return False
        if 'apiVersion' in v and not _extra17(v['apiVersion']):
            return False
        if 'fieldPath' in v and not _extra17(v['fieldPath']):
            return False
        if not _C146.issuperset(v):
            return False
    return True


def _ref147(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C148.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if not _C149.issuperset(v):
            return False
    return True


def _ref152(v):
    if [_extra17(v), _any49(v)].count(True) != 1:
        return False
    return True


def _ref150(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C151.issubset(v):
            return False
        if 'containerName' in v and not _extra17(v['containerName']):
            return False
        if 'divisor' in v and not _ref152(v['divisor']):
            return False
        if 'resource' in v and not _extra17(v['resource']):
            return False
        if not _C153.issuperset(v):
            return False
    return True


def _ref154(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C142.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C143.issuperset(v):
            return False
    return True


def _ref140(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'configMapKeyRef' in v and not _ref141(v['configMapKeyRef']):
            return False
        if 'fieldRef' in v and not _ref144(v['fieldRef']):
            return False
        if 'fileKeyRef' in v and not _ref147(v['fileKeyRef']):
            return False
        if 'resourceFieldRef' in v and not _ref150(v['resourceFieldRef']):
            return False
        if 'secretKeyRef' in v and not _ref154(v['secretKeyRef']):
            return False
        if not _C155.issuperset(v):
            return False
    return True


def _ref139(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if 'valueFrom' in v and not _ref140(v['valueFrom']):
            return False
        if not _C156.issuperset(v):
            return False
    return True


def _prop157(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref139, v)):
        return False
    return True


def _ref160(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C161.issubset(v):
            return False
        if 'seconds' in v and not _prop60(v['seconds']):
            return False
        if not _C161.issuperset(v):
            return False
    return True


def _ref159(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'exec' in v and not _ref122(v['exec']):
            return False
        if 'httpGet' in v and not _ref127(v['httpGet']):
            return False
        if 'sleep' in v and not _ref160(v['sleep']):
            return False
        if 'tcpSocket' in v and not _ref132(v['tcpSocket']):
            return False
        if not _C162.issuperset(v):
            return False
    return True


def _ref158(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'postStart' in v and not _ref159(v['postStart']):
            return False
        if 'preStop' in v and not _ref159(v['preStop']):
            return False
        if 'stopSignal' in v and not _extra17(v['stopSignal']):
            return False
        if not _C163.issuperset(v):
            return False
    return True


def _ref164(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C165.issubset(v):
            return False
        if 'resourceName' in v and not _extra17(v['resourceName']):
            return False
        if 'restartPolicy' in v and not _extra17(v['restartPolicy']):
            return False
        if not _C165.issuperset(v):
            return False
    return True


def _prop166(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref164, v)):
        return False
    return True


def _ref168(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'request' in v and not _extra17(v['request']):
            return False
        if not _C169.issuperset(v):
            return False
    return True


def _prop170(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref168, v)):
        return False
    return True


def _prop171(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref152(x):
                return False
    return True


def _ref167(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'claims' in v and not _prop170(v['claims']):
            return False
        if 'limits' in v and not _prop171(v['limits']):
            return False
        if 'requests' in v and not _prop171(v['requests']):
            return False
        if not _C172.issuperset(v):
            return False
    return True


def _ref175(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C176.issubset(v):
            return False
        if 'operator' in v and not _extra17(v['operator']):
            return False
        if 'values' in v and not _prop110(v['values']):
            return False
        if not _C177.issuperset(v):
            return False
    return True


def _ref173(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C174.issubset(v):
            return False
        if 'action' in v and not _extra17(v['action']):
            return False
        if 'exitCodes' in v and not _ref175(v['exitCodes']):
            return False
        if not _C178.issuperset(v):
            return False
    return True


def _prop179(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref173, v)):
        return False
    return True


def _ref180(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C181.issubset(v):
            return False
        if 'devicePath' in v and not _extra17(v['devicePath']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if not _C181.issuperset(v):
            return False
    return True


def _prop182(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref180, v)):
        return False
    return True


def _ref183(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C184.issubset(v):
            return False
        if 'mountPath' in v and not _extra17(v['mountPath']):
            return False
        if 'mountPropagation' in v and not _extra17(v['mountPropagation']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'recursiveReadOnly' in v and not _extra17(v['recursiveReadOnly']):
            return False
        if 'subPath' in v and not _extra17(v['subPath']):
            return False
        if 'subPathExpr' in v and not _extra17(v['subPathExpr']):
            return False
        if not _C185.issuperset(v):
            return False
    return True


def _prop186(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref183, v)):
        return False
    return True


def _ref138(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C6.issubset(v):
            return False
        if 'args' in v and not _prop35(v['args']):
            return False
        if 'command' in v and not _prop35(v['command']):
            return False
        if 'env' in v and not _prop157(v['env']):
            return False
        if 'envFrom' in v and not _prop42(v['envFrom']):
            return False
        if 'image' in v and not _extra17(v['image']):
            return False
        if 'imagePullPolicy' in v and not _extra17(v['imagePullPolicy']):
            return False
        if 'lifecycle' in v and not _ref158(v['lifecycle']):
            return False
        if 'livenessProbe' in v and not _ref121(v['livenessProbe']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'ports' in v and not _prop120(v['ports']):
            return False
        if 'readinessProbe' in v and not _ref121(v['readinessProbe']):
            return False
        if 'resizePolicy' in v and not _prop166(v['resizePolicy']):
            return False
        if 'resources' in v and not _ref167(v['resources']):
            return False
        if 'restartPolicy' in v and not _extra17(v['restartPolicy']):
            return False
        if 'restartPolicyRules' in v and not _prop179(v['restartPolicyRules']):
            return False
        if 'securityContext' in v and not _ref97(v['securityContext']):
            return False
        if 'startupProbe' in v and not _ref121(v['startupProbe']):
            return False
        if 'stdin' in v and not _prop38(v['stdin']):
            return False
        if 'stdinOnce' in v and not _prop38(v['stdinOnce']):
            return False
        if 'terminationMessagePath' in v and not _extra17(v['terminationMessagePath']):
            return False
        if 'terminationMessagePolicy' in v and not _extra17(v['terminationMessagePolicy']):
            return False
        if 'tty' in v and not _prop38(v['tty']):
            return False
        if 'volumeDevices' in v and not _prop182(v['volumeDevices']):
            return False
        if 'volumeMounts' in v and not _prop186(v['volumeMounts']):
            return False
        if 'workingDir' in v and not _extra17(v['workingDir']):
            return False
        if not _C187.issuperset(v):
            return False
    return True


def _prop188(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref138, v)):
        return False
    return True


def _prop190(v):
    if not (type(v) is dict):
        return False
    return True


def _prop191(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'labels' in v and not _prop190(v['labels']):
            return False
        if 'annotations' in v and not _prop190(v['annotations']):
            return False
    return True


def _ref189(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'metadata' in v and not _prop191(v['metadata']):
            return False
        if 'spec' in v and not _prop190(v['spec']):
            return False
    return True


def _ref193(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any194(v):
    if not (v is None):
        return False
    return True


def _prop195(v):
    if not (_ref193(v) or _any194(v)):
        return False
    return True


def _ref196(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P9.search(v) is None):
        return False
    return True


def _prop197(v):
    if not (_ref196(v) or _any194(v)):
        return False
    return True


def _ref198(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop199(v):
    if not (_ref198(v) or _any194(v)):
        return False
    return True


def _ref200(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop201(v):
    if not (_ref200(v) or _any194(v)):
        return False
    return True


def _prop205(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C204.issubset(v):
            return False
        if 'name' in v and not _prop31(v['name']):
            return False
        if 'key' in v and not _prop31(v['key']):
            return False
        if not _C204.issuperset(v):
            return False
    return True


def _any206(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C203.issubset(v):
            return False
        if 'secretKeyRef' in v and not _prop205(v['secretKeyRef']):
            return False
        if not _C203.issuperset(v):
            return False
    return True


def _extra207(v):
    if not (_extra17(v) or _prop60(v) or _any206(v)):
        return False
    return True


def _names209(v):
    if type(v) is str and (_P208.search(v) is None):
        return False
    return True


def _ref202(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra207(x):
                return False
        if not all(map(_names209, v)):
            return False
    return True


def _prop210(v):
    if not (_ref202(v) or _any194(v)):
        return False
    return True


def _ref211(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref36, v)):
        return False
    return True


def _prop212(v):
    if not (_ref211(v) or _any194(v)):
        return False
    return True


def _ref213(v):
    if not _ref44(v):
        return False
    return True


def _prop214(v):
    if not (_ref213(v) or _any194(v)):
        return False
    return True


def _ref215(v):
    if not (type(v) is str):
        return False
    return True


def _prop216(v):
    if not (_ref215(v) or _any194(v)):
        return False
    return True


def _ref217(v):
    if not (type(v) is str and v in _C32):
        return False
    return True


def _prop218(v):
    if not (_ref217(v) or _any194(v)):
        return False
    return True


def _ref219(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_prop31, v)):
        return False
    return True


def _prop220(v):
    if not (_ref219(v) or _any194(v)):
        return False
    return True


def _ref221(v):
    if not (type(v) is str):
        return False
    return True


def _prop222(v):
    if not (_ref221(v) or _any194(v)):
        return False
    return True


def _ref223(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P224.search(v) is None):
        return False
    return True


def _prop225(v):
    if not (_ref223(v) or _any194(v)):
        return False
    return True


def _ref226(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra13(x):
                return False
        if not all(map(_names15, v)):
            return False
    return True


def _prop227(v):
    if not (_ref226(v) or _any194(v)):
        return False
    return True


def _ref228(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
        if not all(map(_names15, v)):
            return False
    return True


def _prop229(v):
    if not (_ref228(v) or _any194(v)):
        return False
    return True


def _ref230(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
    return True


def _prop231(v):
    if not (_ref230(v) or _any194(v)):
        return False
    return True


def _ref232(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item62, v)):
        return False
    return True


def _prop233(v):
    if not (_ref232(v) or _any194(v)):
        return False
    return True


def _ref234(v):
    if not _ref64(v):
        return False
    return True


def _prop235(v):
    if not (_ref234(v) or _any194(v)):
        return False
    return True


def _ref236(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref93, v)):
        return False
    return True


def _prop237(v):
    if not (_ref236(v) or _any194(v)):
        return False
    return True


def _ref238(v):
    if not _ref97(v):
        return False
    return True


def _prop239(v):
    if not (_ref238(v) or _any194(v)):
        return False
    return True


def _ref240(v):
    if not _ref109(v):
        return False
    return True


def _prop241(v):
    if not (_ref240(v) or _any194(v)):
        return False
    return True


def _ref242(v):
    if not (type(v) is bool):
        return False
    return True


def _prop243(v):
    if not (_ref242(v) or _any194(v)):
        return False
    return True


def _ref244(v):
    if not (type(v) is str and v in _C115):
        return False
    return True


def _prop245(v):
    if not (_ref244(v) or _any194(v)):
        return False
    return True


def _ref246(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop247(v):
    if not (_ref246(v) or _any194(v)):
        return False
    return True


def _ref248(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref117, v)):
        return False
    return True


def _prop249(v):
    if not (_ref248(v) or _any194(v)):
        return False
    return True


def _ref250(v):
    if not _ref121(v):
        return False
    return True


def _prop251(v):
    if not (_ref250(v) or _any194(v)):
        return False
    return True


def _ref252(v):
    if not _ref121(v):
        return False
    return True


def _prop253(v):
    if not (_ref252(v) or _any194(v)):
        return False
    return True


def _ref254(v):
    if not _ref121(v):
        return False
    return True


def _prop255(v):
    if not (_ref254(v) or _any194(v)):
        return False
    return True


def _ref256(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref135, v)):
        return False
    return True


def _prop257(v):
    if not (_ref256(v) or _any194(v)):
        return False
    return True


def _any259(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P224.search(v) is None):
        return False
    return True


def _ref260(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C261.issubset(v):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'type' in v and not _extra17(v['type']):
            return False
        if not _C262.issuperset(v):
            return False
    return True


def _prop263(v):
    if not (_any259(v) or _ref260(v)):
        return False
    return True


def _prop265(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P264.search(v) is None):
        return False
    return True


def _prop267(v):
    if not (type(v) is str and v in _C266):
        return False
    return True


def _prop269(v):
    if not (type(v) is str and v in _C268):
        return False
    return True


def _ref272(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C273.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'partition' in v and not _prop60(v['partition']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'volumeID' in v and not _extra17(v['volumeID']):
            return False
        if not _C274.issuperset(v):
            return False
    return True


def _ref275(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C276.issubset(v):
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
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if not _C277.issuperset(v):
            return False
    return True


def _ref278(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C279.issubset(v):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretName' in v and not _extra17(v['secretName']):
            return False
        if 'shareName' in v and not _extra17(v['shareName']):
            return False
        if not _C280.issuperset(v):
            return False
    return True


def _ref283(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'name' in v and not _extra17(v['name']):
            return False
        if not _C6.issuperset(v):
            return False
    return True


def _ref281(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C282.issubset(v):
            return False
        if 'monitors' in v and not _prop35(v['monitors']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretFile' in v and not _extra17(v['secretFile']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if not _C284.issuperset(v):
            return False
    return True


def _ref285(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C273.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if 'volumeID' in v and not _extra17(v['volumeID']):
            return False
        if not _C286.issuperset(v):
            return False
    return True


def _ref288(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C289.issubset(v):
            return False
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'mode' in v and not _prop60(v['mode']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if not _C290.issuperset(v):
            return False
    return True


def _prop291(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref288, v)):
        return False
    return True


def _ref287(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop60(v['defaultMode']):
            return False
        if 'items' in v and not _prop291(v['items']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C292.issuperset(v):
            return False
    return True


def _ref293(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C294.issubset(v):
            return False
        if 'driver' in v and not _extra17(v['driver']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'nodePublishSecretRef' in v and not _ref283(v['nodePublishSecretRef']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'volumeAttributes' in v and not _prop55(v['volumeAttributes']):
            return False
        if not _C295.issuperset(v):
            return False
    return True


def _ref297(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C261.issubset(v):
            return False
        if 'fieldRef' in v and not _ref144(v['fieldRef']):
            return False
        if 'mode' in v and not _prop60(v['mode']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'resourceFieldRef' in v and not _ref150(v['resourceFieldRef']):
            return False
        if not _C298.issuperset(v):
            return False
    return True


def _prop299(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref297, v)):
        return False
    return True


def _ref296(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop60(v['defaultMode']):
            return False
        if 'items' in v and not _prop299(v['items']):
            return False
        if not _C300.issuperset(v):
            return False
    return True


def _ref301(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'medium' in v and not _extra17(v['medium']):
            return False
        if 'sizeLimit' in v and not _ref152(v['sizeLimit']):
            return False
        if not _C302.issuperset(v):
            return False
    return True


def _ref307(v):
    if not (type(v) is str):
        return False
    return True


def _ref309(v):
    if not (type(v) is dict):
        return False
    return True


def _ref308(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'apiVersion' in v and not _extra17(v['apiVersion']):
            return False
        if 'fieldsType' in v and not _extra17(v['fieldsType']):
            return False
        if 'fieldsV1' in v and not _ref309(v['fieldsV1']):
            return False
        if 'manager' in v and not _extra17(v['manager']):
            return False
        if 'operation' in v and not _extra17(v['operation']):
            return False
        if 'subresource' in v and not _extra17(v['subresource']):
            return False
        if 'time' in v and not _ref307(v['time']):
            return False
        if not _C310.issuperset(v):
            return False
    return True


def _prop311(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref308, v)):
        return False
    return True


def _ref312(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C313.issubset(v):
            return False
        if 'apiVersion' in v and not _extra17(v['apiVersion']):
            return False
        if 'blockOwnerDeletion' in v and not _prop38(v['blockOwnerDeletion']):
            return False
        if 'controller' in v and not _prop38(v['controller']):
            return False
        if 'kind' in v and not _extra17(v['kind']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'uid' in v and not _extra17(v['uid']):
            return False
        if not _C314.issuperset(v):
            return False
    return True


def _prop315(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref312, v)):
        return False
    return True


def _ref306(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'annotations' in v and not _prop55(v['annotations']):
            return False
        if 'creationTimestamp' in v and not _ref307(v['creationTimestamp']):
            return False
        if 'deletionGracePeriodSeconds' in v and not _prop60(v['deletionGracePeriodSeconds']):
            return False
        if 'deletionTimestamp' in v and not _ref307(v['deletionTimestamp']):
            return False
        if 'finalizers' in v and not _prop35(v['finalizers']):
            return False
        if 'generateName' in v and not _extra17(v['generateName']):
            return False
        if 'generation' in v and not _prop60(v['generation']):
            return False
        if 'labels' in v and not _prop55(v['labels']):
            return False
        if 'managedFields' in v and not _prop311(v['managedFields']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'namespace' in v and not _extra17(v['namespace']):
            return False
        if 'ownerReferences' in v and not _prop315(v['ownerReferences']):
            return False
        if 'resourceVersion' in v and not _extra17(v['resourceVersion']):
            return False
        if 'selfLink' in v and not _extra17(v['selfLink']):
            return False
        if 'uid' in v and not _extra17(v['uid']):
            return False
        if not _C316.issuperset(v):
            return False
    return True


def _ref318(v):
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
        if not _C319.issuperset(v):
            return False
    return True


def _ref320(v):
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
        if not _C321.issuperset(v):
            return False
    return True


def _ref322(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'limits' in v and not _prop171(v['limits']):
            return False
        if 'requests' in v and not _prop171(v['requests']):
            return False
        if not _C323.issuperset(v):
            return False
    return True


def _ref317(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'accessModes' in v and not _prop35(v['accessModes']):
            return False
        if 'dataSource' in v and not _ref318(v['dataSource']):
            return False
        if 'dataSourceRef' in v and not _ref320(v['dataSourceRef']):
            return False
        if 'resources' in v and not _ref322(v['resources']):
            return False
        if 'selector' in v and not _ref84(v['selector']):
            return False
        if 'storageClassName' in v and not _extra17(v['storageClassName']):
            return False
        if 'volumeAttributesClassName' in v and not _extra17(v['volumeAttributesClassName']):
            return False
        if 'volumeMode' in v and not _extra17(v['volumeMode']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if not _C324.issuperset(v):
            return False
    return True


def _ref304(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C305.issubset(v):
            return False
        if 'metadata' in v and not _ref306(v['metadata']):
            return False
        if 'spec' in v and not _ref317(v['spec']):
            return False
        if not _C325.issuperset(v):
            return False
    return True


def _ref303(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'volumeClaimTemplate' in v and not _ref304(v['volumeClaimTemplate']):
            return False
        if not _C326.issuperset(v):
            return False
    return True


def _ref327(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'lun' in v and not _prop60(v['lun']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'targetWWNs' in v and not _prop35(v['targetWWNs']):
            return False
        if 'wwids' in v and not _prop35(v['wwids']):
            return False
        if not _C328.issuperset(v):
            return False
    return True


def _ref329(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C294.issubset(v):
            return False
        if 'driver' in v and not _extra17(v['driver']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'options' in v and not _prop55(v['options']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if not _C330.issuperset(v):
            return False
    return True


def _ref331(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'datasetName' in v and not _extra17(v['datasetName']):
            return False
        if 'datasetUUID' in v and not _extra17(v['datasetUUID']):
            return False
        if not _C332.issuperset(v):
            return False
    return True


def _ref333(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C334.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'partition' in v and not _prop60(v['partition']):
            return False
        if 'pdName' in v and not _extra17(v['pdName']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if not _C335.issuperset(v):
            return False
    return True


def _ref336(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C337.issubset(v):
            return False
        if 'directory' in v and not _extra17(v['directory']):
            return False
        if 'repository' in v and not _extra17(v['repository']):
            return False
        if 'revision' in v and not _extra17(v['revision']):
            return False
        if not _C338.issuperset(v):
            return False
    return True


def _ref339(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C340.issubset(v):
            return False
        if 'endpoints' in v and not _extra17(v['endpoints']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if not _C341.issuperset(v):
            return False
    return True


def _ref342(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'pullPolicy' in v and not _extra17(v['pullPolicy']):
            return False
        if 'reference' in v and not _extra17(v['reference']):
            return False
        if not _C343.issuperset(v):
            return False
    return True


def _ref344(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C345.issubset(v):
            return False
        if 'chapAuthDiscovery' in v and not _prop38(v['chapAuthDiscovery']):
            return False
        if 'chapAuthSession' in v and not _prop38(v['chapAuthSession']):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'initiatorName' in v and not _extra17(v['initiatorName']):
            return False
        if 'iqn' in v and not _extra17(v['iqn']):
            return False
        if 'iscsiInterface' in v and not _extra17(v['iscsiInterface']):
            return False
        if 'lun' in v and not _prop60(v['lun']):
            return False
        if 'portals' in v and not _prop35(v['portals']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if 'targetPortal' in v and not _extra17(v['targetPortal']):
            return False
        if not _C346.issuperset(v):
            return False
    return True


def _ref347(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C348.issubset(v):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'server' in v and not _extra17(v['server']):
            return False
        if not _C349.issuperset(v):
            return False
    return True


def _ref350(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C351.issubset(v):
            return False
        if 'claimName' in v and not _extra17(v['claimName']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if not _C352.issuperset(v):
            return False
    return True


def _ref353(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C354.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'pdID' in v and not _extra17(v['pdID']):
            return False
        if not _C355.issuperset(v):
            return False
    return True


def _ref356(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C273.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'volumeID' in v and not _extra17(v['volumeID']):
            return False
        if not _C357.issuperset(v):
            return False
    return True


def _ref360(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C261.issubset(v):
            return False
        if 'labelSelector' in v and not _ref84(v['labelSelector']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if 'signerName' in v and not _extra17(v['signerName']):
            return False
        if not _C361.issuperset(v):
            return False
    return True


def _ref362(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'items' in v and not _prop291(v['items']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C363.issuperset(v):
            return False
    return True


def _ref364(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'items' in v and not _prop299(v['items']):
            return False
        if not _C365.issuperset(v):
            return False
    return True


def _ref366(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C367.issubset(v):
            return False
        if 'certificateChainPath' in v and not _extra17(v['certificateChainPath']):
            return False
        if 'credentialBundlePath' in v and not _extra17(v['credentialBundlePath']):
            return False
        if 'keyPath' in v and not _extra17(v['keyPath']):
            return False
        if 'keyType' in v and not _extra17(v['keyType']):
            return False
        if 'maxExpirationSeconds' in v and not _prop60(v['maxExpirationSeconds']):
            return False
        if 'signerName' in v and not _extra17(v['signerName']):
            return False
        if 'userAnnotations' in v and not _prop55(v['userAnnotations']):
            return False
        if not _C368.issuperset(v):
            return False
    return True


def _ref369(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'items' in v and not _prop291(v['items']):
            return False
        if 'name' in v and not _extra17(v['name']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if not _C363.issuperset(v):
            return False
    return True


def _ref370(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C261.issubset(v):
            return False
        if 'audience' in v and not _extra17(v['audience']):
            return False
        if 'expirationSeconds' in v and not _prop60(v['expirationSeconds']):
            return False
        if 'path' in v and not _extra17(v['path']):
            return False
        if not _C371.issuperset(v):
            return False
    return True


def _ref359(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'clusterTrustBundle' in v and not _ref360(v['clusterTrustBundle']):
            return False
        if 'configMap' in v and not _ref362(v['configMap']):
            return False
        if 'downwardAPI' in v and not _ref364(v['downwardAPI']):
            return False
        if 'podCertificate' in v and not _ref366(v['podCertificate']):
            return False
        if 'secret' in v and not _ref369(v['secret']):
            return False
        if 'serviceAccountToken' in v and not _ref370(v['serviceAccountToken']):
            return False
        if not _C372.issuperset(v):
            return False
    return True


def _prop373(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref359, v)):
        return False
    return True


def _ref358(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop60(v['defaultMode']):
            return False
        if 'sources' in v and not _prop373(v['sources']):
            return False
        if not _C374.issuperset(v):
            return False
    return True


def _ref375(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C376.issubset(v):
            return False
        if 'group' in v and not _extra17(v['group']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'registry' in v and not _extra17(v['registry']):
            return False
        if 'tenant' in v and not _extra17(v['tenant']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if 'volume' in v and not _extra17(v['volume']):
            return False
        if not _C377.issuperset(v):
            return False
    return True


def _ref378(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C379.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'image' in v and not _extra17(v['image']):
            return False
        if 'keyring' in v and not _extra17(v['keyring']):
            return False
        if 'monitors' in v and not _prop35(v['monitors']):
            return False
        if 'pool' in v and not _extra17(v['pool']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if 'user' in v and not _extra17(v['user']):
            return False
        if not _C380.issuperset(v):
            return False
    return True


def _ref381(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C382.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'gateway' in v and not _extra17(v['gateway']):
            return False
        if 'protectionDomain' in v and not _extra17(v['protectionDomain']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if 'sslEnabled' in v and not _prop38(v['sslEnabled']):
            return False
        if 'storageMode' in v and not _extra17(v['storageMode']):
            return False
        if 'storagePool' in v and not _extra17(v['storagePool']):
            return False
        if 'system' in v and not _extra17(v['system']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if not _C383.issuperset(v):
            return False
    return True


def _ref384(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'defaultMode' in v and not _prop60(v['defaultMode']):
            return False
        if 'items' in v and not _prop291(v['items']):
            return False
        if 'optional' in v and not _prop38(v['optional']):
            return False
        if 'secretName' in v and not _extra17(v['secretName']):
            return False
        if not _C385.issuperset(v):
            return False
    return True


def _ref386(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'secretRef' in v and not _ref283(v['secretRef']):
            return False
        if 'volumeName' in v and not _extra17(v['volumeName']):
            return False
        if 'volumeNamespace' in v and not _extra17(v['volumeNamespace']):
            return False
        if not _C387.issuperset(v):
            return False
    return True


def _ref388(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C389.issubset(v):
            return False
        if 'fsType' in v and not _extra17(v['fsType']):
            return False
        if 'storagePolicyID' in v and not _extra17(v['storagePolicyID']):
            return False
        if 'storagePolicyName' in v and not _extra17(v['storagePolicyName']):
            return False
        if 'volumePath' in v and not _extra17(v['volumePath']):
            return False
        if not _C390.issuperset(v):
            return False
    return True


def _ref271(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'awsElasticBlockStore' in v and not _ref272(v['awsElasticBlockStore']):
            return False
        if 'azureDisk' in v and not _ref275(v['azureDisk']):
            return False
        if 'azureFile' in v and not _ref278(v['azureFile']):
            return False
        if 'cephfs' in v and not _ref281(v['cephfs']):
            return False
        if 'cinder' in v and not _ref285(v['cinder']):
            return False
        if 'configMap' in v and not _ref287(v['configMap']):
            return False
        if 'csi' in v and not _ref293(v['csi']):
            return False
        if 'downwardAPI' in v and not _ref296(v['downwardAPI']):
            return False
        if 'emptyDir' in v and not _ref301(v['emptyDir']):
            return False
        if 'ephemeral' in v and not _ref303(v['ephemeral']):
            return False
        if 'fc' in v and not _ref327(v['fc']):
            return False
        if 'flexVolume' in v and not _ref329(v['flexVolume']):
            return False
        if 'flocker' in v and not _ref331(v['flocker']):
            return False
        if 'gcePersistentDisk' in v and not _ref333(v['gcePersistentDisk']):
            return False
        if 'gitRepo' in v and not _ref336(v['gitRepo']):
            return False
        if 'glusterfs' in v and not _ref339(v['glusterfs']):
            return False
        if 'image' in v and not _ref342(v['image']):
            return False
        if 'iscsi' in v and not _ref344(v['iscsi']):
            return False
        if 'nfs' in v and not _ref347(v['nfs']):
            return False
        if 'persistentVolumeClaim' in v and not _ref350(v['persistentVolumeClaim']):
            return False
        if 'photonPersistentDisk' in v and not _ref353(v['photonPersistentDisk']):
            return False
        if 'portworxVolume' in v and not _ref356(v['portworxVolume']):
            return False
        if 'projected' in v and not _ref358(v['projected']):
            return False
        if 'quobyte' in v and not _ref375(v['quobyte']):
            return False
        if 'rbd' in v and not _ref378(v['rbd']):
            return False
        if 'scaleIO' in v and not _ref381(v['scaleIO']):
            return False
        if 'secret' in v and not _ref384(v['secret']):
            return False
        if 'storageos' in v and not _ref386(v['storageos']):
            return False
        if 'vsphereVolume' in v and not _ref388(v['vsphereVolume']):
            return False
    return True


def _item391(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'claimName' in v and not _prop31(v['claimName']):
            return False
        if 'hostPath' in v and not _prop263(v['hostPath']):
            return False
        if 'mountPath' in v and not _any259(v['mountPath']):
            return False
        if 'readOnly' in v and not _prop38(v['readOnly']):
            return False
        if 'subPath' in v and not _extra17(v['subPath']):
            return False
        if 'name' in v and not _prop265(v['name']):
            return False
        if 'subPathExpr' in v and not _extra17(v['subPathExpr']):
            return False
        if 'mountPropagation' in v and not _prop267(v['mountPropagation']):
            return False
        if 'recursiveReadOnly' in v and not _prop269(v['recursiveReadOnly']):
            return False
        if not _C270.issuperset(v):
            return False
    if not _ref271(v):
        return False
    return True


def _ref258(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item391, v)):
        return False
    return True


def _prop392(v):
    if not (_ref258(v) or _any194(v)):
        return False
    return True


def _ref393(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref138, v)):
        return False
    return True


def _prop394(v):
    if not (_ref393(v) or _any194(v)):
        return False
    return True


def _ref395(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_ref138, v)):
        return False
    return True


def _prop396(v):
    if not (_ref395(v) or _any194(v)):
        return False
    return True


def _ref397(v):
    if not _ref189(v):
        return False
    return True


def _prop398(v):
    if not (_ref397(v) or _any194(v)):
        return False
    return True


def _ref192(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop195(v['image']):
            return False
        if 'containerName' in v and not _prop197(v['containerName']):
            return False
        if 'command' in v and not _prop199(v['command']):
            return False
        if 'args' in v and not _prop201(v['args']):
            return False
        if 'env' in v and not _prop210(v['env']):
            return False
        if 'envFrom' in v and not _prop212(v['envFrom']):
            return False
        if 'resources' in v and not _prop214(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop216(v['priorityClassName']):
            return False
        if 'imagePullPolicy' in v and not _prop218(v['imagePullPolicy']):
            return False
        if 'imagePullSecrets' in v and not _prop220(v['imagePullSecrets']):
            return False
        if 'serviceAccountName' in v and not _prop222(v['serviceAccountName']):
            return False
        if 'workingDir' in v and not _prop225(v['workingDir']):
            return False
        if 'labels' in v and not _prop227(v['labels']):
            return False
        if 'annotations' in v and not _prop229(v['annotations']):
            return False
        if 'nodeSelector' in v and not _prop231(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop233(v['tolerations']):
            return False
        if 'affinity' in v and not _prop235(v['affinity']):
            return False
        if 'topologySpreadConstraints' in v and not _prop237(v['topologySpreadConstraints']):
            return False
        if 'securityContext' in v and not _prop239(v['securityContext']):
            return False
        if 'podSecurityContext' in v and not _prop241(v['podSecurityContext']):
            return False
        if 'hostNetwork' in v and not _prop243(v['hostNetwork']):
            return False
        if 'dnsPolicy' in v and not _prop245(v['dnsPolicy']):
            return False
        if 'runtimeClassName' in v and not _prop247(v['runtimeClassName']):
            return False
        if 'ports' in v and not _prop249(v['ports']):
            return False
        if 'livenessProbe' in v and not _prop251(v['livenessProbe']):
            return False
        if 'readinessProbe' in v and not _prop253(v['readinessProbe']):
            return False
        if 'startupProbe' in v and not _prop255(v['startupProbe']):
            return False
        if 'resourceClaims' in v and not _prop257(v['resourceClaims']):
            return False
        if 'volumes' in v and not _prop392(v['volumes']):
            return False
        if 'initContainers' in v and not _prop394(v['initContainers']):
            return False
        if 'sidecars' in v and not _prop396(v['sidecars']):
            return False
        if 'podTemplatePatch' in v and not _prop398(v['podTemplatePatch']):
            return False
        if not _C399.issuperset(v):
            return False
    return True


def _names400(v):
    if type(v) is str and (len(v) > 63 or _P9.search(v) is None):
        return False
    return True


def _prop401(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref192(x):
                return False
        if not all(map(_names400, v)):
            return False
    return True


def _prop403(v):
    if not (type(v) is str and v in _C402):
        return False
    return True


def _prop405(v):
    if not (type(v) is str and v in _C404):
        return False
    return True


def _prop407(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'resources' in v and not _ref44(v['resources']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if not _C406.issuperset(v):
            return False
    return True


def _prop409(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'implementation' in v and not _prop403(v['implementation']):
            return False
        if 'extraArgs' in v and not _prop35(v['extraArgs']):
            return False
        if 'mpirun' in v and not _prop38(v['mpirun']):
            return False
        if 'sshAuthMountPath' in v and not _any259(v['sshAuthMountPath']):
            return False
        if 'launcherCreationPolicy' in v and not _prop405(v['launcherCreationPolicy']):
            return False
        if 'runLauncherAsWorker' in v and not _prop38(v['runLauncherAsWorker']):
            return False
        if 'launcher' in v and not _prop407(v['launcher']):
            return False
        if not _C408.issuperset(v):
            return False
    return True


def _prop411(v):
    if not (type(v) is str and v in _C410):
        return False
    return True


def _prop413(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gang' in v and not _prop411(v['gang']):
            return False
        if 'schedulerName' in v and not _prop31(v['schedulerName']):
            return False
        if 'queue' in v and not _extra17(v['queue']):
            return False
        if 'priorityClass' in v and not _extra17(v['priorityClass']):
            return False
        if 'minAvailable' in v and not _prop43(v['minAvailable']):
            return False
        if 'minResources' in v and not _ref44(v['minResources']):
            return False
        if 'scheduleTimeoutSeconds' in v and not _prop43(v['scheduleTimeoutSeconds']):
            return False
        if 'gpuTopology' in v and not _prop38(v['gpuTopology']):
            return False
        if not _C412.issuperset(v):
            return False
    return True


def _prop415(v):
    if not (type(v) is str and v in _C414):
        return False
    return True


def _prop416(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 9223372036854775807:
            return False
    return True


def _prop418(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'cleanPodPolicy' in v and not _prop415(v['cleanPodPolicy']):
            return False
        if 'ttlSecondsAfterFinished' in v and not _prop43(v['ttlSecondsAfterFinished']):
            return False
        if 'activeDeadlineSeconds' in v and not _prop416(v['activeDeadlineSeconds']):
            return False
        if 'backoffLimit' in v and not _prop43(v['backoffLimit']):
            return False
        if 'suspend' in v and not _prop38(v['suspend']):
            return False
        if not _C417.issuperset(v):
            return False
    return True


def _prop419(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra207(x):
                return False
        if not all(map(_names209, v)):
            return False
    return True


def _prop420(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item391, v)):
        return False
    return True


def _prop422(v):
    if not (type(v) is str and v in _C421):
        return False
    return True


def _prop423(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop425(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop423(v['port']):
            return False
        if 'master' in v and not _prop407(v['master']):
            return False
        if not _C424.issuperset(v):
            return False
    return True


def _prop427(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'resources' in v and not _ref44(v['resources']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if 'replicas' in v and not _prop54(v['replicas']):
            return False
        if not _C426.issuperset(v):
            return False
    return True


def _prop429(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop423(v['port']):
            return False
        if 'ps' in v and not _prop427(v['ps']):
            return False
        if 'chief' in v and not _prop407(v['chief']):
            return False
        if 'evaluator' in v and not _prop407(v['evaluator']):
            return False
        if not _C428.issuperset(v):
            return False
    return True


def _prop431(v):
    if not (type(v) is str and v in _C430):
        return False
    return True


def _prop433(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'logDir' in v and not _any259(v['logDir']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'port' in v and not _prop423(v['port']):
            return False
        if 'serviceType' in v and not _prop431(v['serviceType']):
            return False
        if not _C432.issuperset(v):
            return False
    return True


def _prop435(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'repository' in v and not _prop31(v['repository']):
            return False
        if 'revision' in v and not _prop31(v['revision']):
            return False
        if 'depth' in v and not _prop43(v['depth']):
            return False
        if 'secret' in v and not _prop31(v['secret']):
            return False
        if 'username' in v and not _extra17(v['username']):
            return False
        if 'password' in v and not _extra17(v['password']):
            return False
        if not _C434.issuperset(v):
            return False
    return True


def _prop437(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'source' in v and not _prop31(v['source']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if not _C436.issuperset(v):
            return False
    return True


def _prop439(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'mountPath' in v and not _any259(v['mountPath']):
            return False
        if 'git' in v and not _prop435(v['git']):
            return False
        if 'rsync' in v and not _prop437(v['rsync']):
            return False
        if not _C438.issuperset(v):
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
        if 'containerName' in v and not _prop10(v['containerName']):
            return False
        if 'imagePullPolicy' in v and not _prop33(v['imagePullPolicy']):
            return False
        if 'imagePullSecrets' in v and not _prop34(v['imagePullSecrets']):
            return False
        if 'command' in v and not _prop35(v['command']):
            return False
        if 'args' in v and not _prop35(v['args']):
            return False
        if 'envFrom' in v and not _prop42(v['envFrom']):
            return False
        if 'workers' in v and not _prop43(v['workers']):
            return False
        if 'resources' in v and not _ref44(v['resources']):
            return False
        if 'slotsPerWorker' in v and not _prop54(v['slotsPerWorker']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if 'serviceAccountName' in v and not _extra17(v['serviceAccountName']):
            return False
        if 'nodeSelector' in v and not _prop55(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop63(v['tolerations']):
            return False
        if 'affinity' in v and not _ref64(v['affinity']):
            return False
        if 'topologySpreadConstraints' in v and not _prop96(v['topologySpreadConstraints']):
            return False
        if 'securityContext' in v and not _ref97(v['securityContext']):
            return False
        if 'podSecurityContext' in v and not _ref109(v['podSecurityContext']):
            return False
        if 'hostNetwork' in v and not _prop38(v['hostNetwork']):
            return False
        if 'dnsPolicy' in v and not _prop116(v['dnsPolicy']):
            return False
        if 'runtimeClassName' in v and not _prop31(v['runtimeClassName']):
            return False
        if 'ports' in v and not _prop120(v['ports']):
            return False
        if 'livenessProbe' in v and not _ref121(v['livenessProbe']):
            return False
        if 'readinessProbe' in v and not _ref121(v['readinessProbe']):
            return False
        if 'startupProbe' in v and not _ref121(v['startupProbe']):
            return False
        if 'resourceClaims' in v and not _prop137(v['resourceClaims']):
            return False
        if 'initContainers' in v and not _prop188(v['initContainers']):
            return False
        if 'sidecars' in v and not _prop188(v['sidecars']):
            return False
        if 'podTemplatePatch' in v and not _ref189(v['podTemplatePatch']):
            return False
        if 'roles' in v and not _prop401(v['roles']):
            return False
        if 'mpi' in v and not _prop409(v['mpi']):
            return False
        if 'scheduling' in v and not _prop413(v['scheduling']):
            return False
        if 'runPolicy' in v and not _prop418(v['runPolicy']):
            return False
        if 'env' in v and not _prop419(v['env']):
            return False
        if 'volumes' in v and not _prop420(v['volumes']):
            return False
        if 'workingDir' in v and not _any259(v['workingDir']):
            return False
        if 'labels' in v and not _prop16(v['labels']):
            return False
        if 'annotations' in v and not _prop18(v['annotations']):
            return False
        if 'restartPolicy' in v and not _prop422(v['restartPolicy']):
            return False
        if 'pytorch' in v and not _prop425(v['pytorch']):
            return False
        if 'tensorflow' in v and not _prop429(v['tensorflow']):
            return False
        if 'tensorboard' in v and not _prop433(v['tensorboard']):
            return False
        if 'code' in v and not _prop439(v['code']):
            return False
        if 'shmSize' in v and not _prop50(v['shmSize']):
            return False
    return True


def _ref441(v):
    if not _ref22(v):
        return False
    if type(v) is dict:
        if not _C442.issuperset(v):
            return False
    return True


def _names444(v):
    if type(v) is str and (_P443.search(v) is None):
        return False
    return True


def _prop445(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref441(x):
                return False
        if not all(map(_names444, v)):
            return False
    return True


def _any448(v):
    if type(v) is dict:
        if not _C447.issubset(v):
            return False
    return True


def _any450(v):
    if type(v) is dict:
        if not _C449.issubset(v):
            return False
    return True


def _ref21(v):
    if not _ref22(v):
        return False
    if type(v) is dict:
        if not _C440.issubset(v):
            return False
        if 'environments' in v and not _prop445(v['environments']):
            return False
        if not _C446.issuperset(v):
            return False
    if not (_any448(v) or _any450(v)):
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
