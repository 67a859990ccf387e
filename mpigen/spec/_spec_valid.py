"""Generated from schemas/mpigen.dev/trainingjob_v1alpha1.json by mpigen/spec/schemagen.py: do not edit.

Regenerate with `python -m mpigen.spec.schemagen`; a test fails while this file is stale.
"""
# fmt: off
from mpigen.spec.schema_runtime import Pattern as _Pattern, equal as _equal

SCHEMA = 'mpigen.dev/trainingjob_v1alpha1.json'
FINGERPRINT = (241106, 3376063377)

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
_P39 = _Pattern('^[0-9]+$')
_C44 = frozenset(['cpu', 'gpu', 'memory'])
_P45 = _Pattern('^([A-Za-z0-9][-A-Za-z0-9_.]*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')
_C49 = frozenset(['Equal', 'Exists'])
_C51 = frozenset(['NoExecute', 'NoSchedule', 'PreferNoSchedule'])
_C54 = frozenset(['effect', 'key', 'operator', 'tolerationSeconds', 'value'])
_C57 = frozenset(['Intel', 'MPICH', 'OpenMPI'])
_P61 = _Pattern('^/')
_C63 = frozenset(['AtStartup', 'WaitForWorkersReady'])
_C65 = frozenset(['image', 'priorityClassName', 'resources'])
_C67 = frozenset(['extraArgs', 'implementation', 'launcher', 'launcherCreationPolicy', 'mpirun', 'runLauncherAsWorker', 'sshAuthMountPath'])
_C69 = frozenset(['kube-batch', 'kueue', 'none', 'scheduler-plugins', 'volcano'])
_C71 = frozenset(['gang', 'gpuTopology', 'minAvailable', 'minResources', 'priorityClass', 'queue', 'scheduleTimeoutSeconds', 'schedulerName'])
_C73 = frozenset(['All', 'None', 'Running'])
_C76 = frozenset(['activeDeadlineSeconds', 'backoffLimit', 'cleanPodPolicy', 'suspend', 'ttlSecondsAfterFinished'])
_C78 = frozenset(['secretKeyRef'])
_C79 = frozenset(['key', 'name'])
_P83 = _Pattern('^[-._a-zA-Z][-._a-zA-Z0-9]*$')
_C86 = frozenset(['mountPath'])
_P87 = _Pattern('^[a-z]([-a-z0-9]*[a-z0-9])?$')
_C89 = frozenset(['claimName', 'hostPath', 'mountPath', 'name', 'readOnly', 'subPath'])
_C92 = frozenset(['Always', 'ExitCode', 'Never', 'OnFailure'])
_C95 = frozenset(['master', 'port'])
_C97 = frozenset(['image', 'priorityClassName', 'replicas', 'resources'])
_C99 = frozenset(['chief', 'evaluator', 'port', 'ps'])
_C101 = frozenset(['ClusterIP', 'NodePort'])
_C103 = frozenset(['image', 'logDir', 'port', 'serviceType'])
_C105 = frozenset(['depth', 'password', 'repository', 'revision', 'secret', 'username'])
_C107 = frozenset(['image', 'source'])
_C109 = frozenset(['git', 'mountPath', 'rsync'])
_C111 = frozenset(['command', 'framework', 'image', 'workers'])
_C113 = frozenset(['annotations', 'code', 'command', 'env', 'framework', 'image', 'imagePullPolicy', 'imagePullSecrets', 'labels', 'mpi', 'nodeSelector', 'priorityClassName', 'pytorch', 'resources', 'restartPolicy', 'runPolicy', 'runtime', 'scheduling', 'serviceAccountName', 'shmSize', 'slotsPerWorker', 'tensorboard', 'tensorflow', 'tolerations', 'volumes', 'workers', 'workingDir'])
_P114 = _Pattern('^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$')
_C117 = frozenset(['annotations', 'code', 'command', 'env', 'environments', 'framework', 'image', 'imagePullPolicy', 'imagePullSecrets', 'labels', 'mpi', 'nodeSelector', 'priorityClassName', 'pytorch', 'resources', 'restartPolicy', 'runPolicy', 'runtime', 'scheduling', 'serviceAccountName', 'shmSize', 'slotsPerWorker', 'tensorboard', 'tensorflow', 'tolerations', 'volumes', 'workers', 'workingDir'])

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
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _any38(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
    return True


def _any40(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P39.search(v) is None):
        return False
    return True


def _prop41(v):
    if not (_any38(v) or _any40(v)):
        return False
    return True


def _any42(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop43(v):
    if not (_prop31(v) or _any42(v)):
        return False
    return True


def _names46(v):
    if type(v) is str and (_P45.search(v) is None):
        return False
    return True


def _ref37(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gpu' in v and not _prop41(v['gpu']):
            return False
        if 'cpu' in v and not _prop43(v['cpu']):
            return False
        if 'memory' in v and not _prop43(v['memory']):
            return False
        for k, x in v.items():
            if k not in _C44 and not _prop43(x):
                return False
        if not all(map(_names46, v)):
            return False
    return True


def _prop47(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
            return False
    return True


def _prop48(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra17(x):
                return False
    return True


def _prop50(v):
    if not (type(v) is str and v in _C49):
        return False
    return True


def _prop52(v):
    if not (type(v) is str and v in _C51):
        return False
    return True


def _prop53(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _item55(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'key' in v and not _extra17(v['key']):
            return False
        if 'operator' in v and not _prop50(v['operator']):
            return False
        if 'value' in v and not _extra17(v['value']):
            return False
        if 'effect' in v and not _prop52(v['effect']):
            return False
        if 'tolerationSeconds' in v and not _prop53(v['tolerationSeconds']):
            return False
        if not _C54.issuperset(v):
            return False
    return True


def _prop56(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item55, v)):
        return False
    return True


def _prop58(v):
    if not (type(v) is str and v in _C57):
        return False
    return True


def _prop59(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_extra17, v)):
        return False
    return True


def _prop60(v):
    if not (type(v) is bool):
        return False
    return True


def _prop62(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P61.search(v) is None):
        return False
    return True


def _prop64(v):
    if not (type(v) is str and v in _C63):
        return False
    return True


def _prop66(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'resources' in v and not _ref37(v['resources']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if not _C65.issuperset(v):
            return False
    return True


def _prop68(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'implementation' in v and not _prop58(v['implementation']):
            return False
        if 'extraArgs' in v and not _prop59(v['extraArgs']):
            return False
        if 'mpirun' in v and not _prop60(v['mpirun']):
            return False
        if 'sshAuthMountPath' in v and not _prop62(v['sshAuthMountPath']):
            return False
        if 'launcherCreationPolicy' in v and not _prop64(v['launcherCreationPolicy']):
            return False
        if 'runLauncherAsWorker' in v and not _prop60(v['runLauncherAsWorker']):
            return False
        if 'launcher' in v and not _prop66(v['launcher']):
            return False
        if not _C67.issuperset(v):
            return False
    return True


def _prop70(v):
    if not (type(v) is str and v in _C69):
        return False
    return True


def _prop72(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gang' in v and not _prop70(v['gang']):
            return False
        if 'schedulerName' in v and not _prop31(v['schedulerName']):
            return False
        if 'queue' in v and not _extra17(v['queue']):
            return False
        if 'priorityClass' in v and not _extra17(v['priorityClass']):
            return False
        if 'minAvailable' in v and not _prop36(v['minAvailable']):
            return False
        if 'minResources' in v and not _ref37(v['minResources']):
            return False
        if 'scheduleTimeoutSeconds' in v and not _prop36(v['scheduleTimeoutSeconds']):
            return False
        if 'gpuTopology' in v and not _prop60(v['gpuTopology']):
            return False
        if not _C71.issuperset(v):
            return False
    return True


def _prop74(v):
    if not (type(v) is str and v in _C73):
        return False
    return True


def _prop75(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 9223372036854775807:
            return False
    return True


def _prop77(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'cleanPodPolicy' in v and not _prop74(v['cleanPodPolicy']):
            return False
        if 'ttlSecondsAfterFinished' in v and not _prop36(v['ttlSecondsAfterFinished']):
            return False
        if 'activeDeadlineSeconds' in v and not _prop75(v['activeDeadlineSeconds']):
            return False
        if 'backoffLimit' in v and not _prop36(v['backoffLimit']):
            return False
        if 'suspend' in v and not _prop60(v['suspend']):
            return False
        if not _C76.issuperset(v):
            return False
    return True


def _prop80(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C79.issubset(v):
            return False
        if 'name' in v and not _prop31(v['name']):
            return False
        if 'key' in v and not _prop31(v['key']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _any81(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C78.issubset(v):
            return False
        if 'secretKeyRef' in v and not _prop80(v['secretKeyRef']):
            return False
        if not _C78.issuperset(v):
            return False
    return True


def _extra82(v):
    if not (_extra17(v) or _prop53(v) or _any81(v)):
        return False
    return True


def _names84(v):
    if type(v) is str and (_P83.search(v) is None):
        return False
    return True


def _prop85(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _extra82(x):
                return False
        if not all(map(_names84, v)):
            return False
    return True


def _prop88(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P87.search(v) is None):
        return False
    return True


def _item90(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C86.issubset(v):
            return False
        if 'claimName' in v and not _prop31(v['claimName']):
            return False
        if 'hostPath' in v and not _prop62(v['hostPath']):
            return False
        if 'mountPath' in v and not _prop62(v['mountPath']):
            return False
        if 'readOnly' in v and not _prop60(v['readOnly']):
            return False
        if 'subPath' in v and not _extra17(v['subPath']):
            return False
        if 'name' in v and not _prop88(v['name']):
            return False
        if not _C89.issuperset(v):
            return False
    return True


def _prop91(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item90, v)):
        return False
    return True


def _prop93(v):
    if not (type(v) is str and v in _C92):
        return False
    return True


def _prop94(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop96(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop94(v['port']):
            return False
        if 'master' in v and not _prop66(v['master']):
            return False
        if not _C95.issuperset(v):
            return False
    return True


def _prop98(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'resources' in v and not _ref37(v['resources']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if 'replicas' in v and not _prop47(v['replicas']):
            return False
        if not _C97.issuperset(v):
            return False
    return True


def _prop100(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop94(v['port']):
            return False
        if 'ps' in v and not _prop98(v['ps']):
            return False
        if 'chief' in v and not _prop66(v['chief']):
            return False
        if 'evaluator' in v and not _prop66(v['evaluator']):
            return False
        if not _C99.issuperset(v):
            return False
    return True


def _prop102(v):
    if not (type(v) is str and v in _C101):
        return False
    return True


def _prop104(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'logDir' in v and not _prop62(v['logDir']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if 'port' in v and not _prop94(v['port']):
            return False
        if 'serviceType' in v and not _prop102(v['serviceType']):
            return False
        if not _C103.issuperset(v):
            return False
    return True


def _prop106(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'repository' in v and not _prop31(v['repository']):
            return False
        if 'revision' in v and not _prop31(v['revision']):
            return False
        if 'depth' in v and not _prop36(v['depth']):
            return False
        if 'secret' in v and not _prop31(v['secret']):
            return False
        if 'username' in v and not _extra17(v['username']):
            return False
        if 'password' in v and not _extra17(v['password']):
            return False
        if not _C105.issuperset(v):
            return False
    return True


def _prop108(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'source' in v and not _prop31(v['source']):
            return False
        if 'image' in v and not _prop31(v['image']):
            return False
        if not _C107.issuperset(v):
            return False
    return True


def _prop110(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'mountPath' in v and not _prop62(v['mountPath']):
            return False
        if 'git' in v and not _prop106(v['git']):
            return False
        if 'rsync' in v and not _prop108(v['rsync']):
            return False
        if not _C109.issuperset(v):
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
        if 'workers' in v and not _prop36(v['workers']):
            return False
        if 'resources' in v and not _ref37(v['resources']):
            return False
        if 'slotsPerWorker' in v and not _prop47(v['slotsPerWorker']):
            return False
        if 'priorityClassName' in v and not _extra17(v['priorityClassName']):
            return False
        if 'serviceAccountName' in v and not _extra17(v['serviceAccountName']):
            return False
        if 'nodeSelector' in v and not _prop48(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop56(v['tolerations']):
            return False
        if 'mpi' in v and not _prop68(v['mpi']):
            return False
        if 'scheduling' in v and not _prop72(v['scheduling']):
            return False
        if 'runPolicy' in v and not _prop77(v['runPolicy']):
            return False
        if 'env' in v and not _prop85(v['env']):
            return False
        if 'volumes' in v and not _prop91(v['volumes']):
            return False
        if 'workingDir' in v and not _prop62(v['workingDir']):
            return False
        if 'labels' in v and not _prop16(v['labels']):
            return False
        if 'annotations' in v and not _prop18(v['annotations']):
            return False
        if 'restartPolicy' in v and not _prop93(v['restartPolicy']):
            return False
        if 'pytorch' in v and not _prop96(v['pytorch']):
            return False
        if 'tensorflow' in v and not _prop100(v['tensorflow']):
            return False
        if 'tensorboard' in v and not _prop104(v['tensorboard']):
            return False
        if 'code' in v and not _prop110(v['code']):
            return False
        if 'shmSize' in v and not _prop43(v['shmSize']):
            return False
    return True


def _ref112(v):
    if not _ref22(v):
        return False
    if type(v) is dict:
        if not _C113.issuperset(v):
            return False
    return True


def _names115(v):
    if type(v) is str and (_P114.search(v) is None):
        return False
    return True


def _prop116(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C11 and not _ref112(x):
                return False
        if not all(map(_names115, v)):
            return False
    return True


def _ref21(v):
    if not _ref22(v):
        return False
    if type(v) is dict:
        if not _C111.issubset(v):
            return False
        if 'environments' in v and not _prop116(v['environments']):
            return False
        if not _C117.issuperset(v):
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
