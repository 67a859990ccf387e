-- Health of a JobSet (jobset.x-k8s.io/v1alpha2) as JobSet v0.12.0 reports it.
--
-- Derived from sigs.k8s.io/jobset at v0.12.0 (commit 09e9a3bb4b64dbe75b5b0119d3623903f0434643):
--   api/jobset/v1alpha2/jobset_types.go: the condition types Completed, Failed, Suspended,
--     RestartingJobSet, StartupPolicyInProgress and StartupPolicyCompleted (metav1.Condition);
--     spec.replicatedJobs[].replicas (default 1); status.replicatedJobsStatus;
--   pkg/controllers/jobset_controller.go (setJobSetCompletedCondition,
--     setJobSetSuspendedCondition, calculateReplicatedJobStatuses, allJobsReady): Completed and
--     Failed are final; Suspended while spec.suspend is true; a child Job counts as ready when
--     its ready and succeeded pods reach its parallelism (or completions), as active while it has
--     a pending or running pod; the JobSet's jobs are all ready when the ready and succeeded Jobs
--     add up to the replicas of every replicated job;
--   pkg/controllers/failure_policy.go (setJobSetFailedCondition, RestartingJobSet): Failed
--     with its reason and message; RestartingJobSet True while the JobSet restarts its Jobs.
-- Kueue (sigs.k8s.io/kueue v0.19.2, commit 8eab68778fc1b52affe165fdf5af29d1e9b4f3cb,
-- pkg/controller/jobframework/defaults.go ApplyDefaultForSuspend,
-- pkg/controller/jobs/jobset/jobset_controller.go RunWithPodSetsInfo) creates a JobSet labelled
-- kueue.x-k8s.io/queue-name suspended and resumes it when it admits it: such a JobSet is queued,
-- not suspended by its owner. Jobs whose pods a gang scheduler holds stay active but not ready:
-- the PodGroup says what holds them.
--
-- Only Lua's base and table libraries are used, so the script runs as an argocd-cm health check
-- without resource.customizations.useOpenLibs.

local function trueCondition(conditions, conditionType)
  for _, condition in ipairs(conditions) do
    if condition.type == conditionType and condition.status == "True" then
      return condition
    end
  end
  return nil
end

local function said(condition, fallback)
  if condition ~= nil and condition.message ~= nil and condition.message ~= "" then
    return condition.message
  end
  if condition ~= nil and condition.reason ~= nil and condition.reason ~= "" then
    return condition.reason
  end
  return fallback
end

local status = obj.status or {}
local conditions = status.conditions or {}
local labels = obj.metadata.labels or {}
local spec = obj.spec or {}

local failed = trueCondition(conditions, "Failed")
if failed ~= nil then
  return {status = "Degraded", message = said(failed, "Failed")}
end
local completed = trueCondition(conditions, "Completed")
if completed ~= nil then
  return {status = "Healthy", message = said(completed, "Completed")}
end
if spec.suspend == true then
  local queue = labels["kueue.x-k8s.io/queue-name"]
  if queue ~= nil then
    return {status = "Progressing", message = "Queued in Kueue (LocalQueue " .. queue .. "): suspended until Kueue admits it"}
  end
  return {status = "Suspended", message = said(trueCondition(conditions, "Suspended"), "spec.suspend is true")}
end
local restarting = trueCondition(conditions, "RestartingJobSet")
if restarting ~= nil then
  return {status = "Progressing", message = said(restarting, "Restarting")}
end

-- allJobsReady: the ready and succeeded Jobs of every replicated job against its replicas
local expected = 0
for _, replicatedJob in ipairs(spec.replicatedJobs or {}) do
  expected = expected + (replicatedJob.replicas or 1)
end
local done = 0
local waiting = {}
for _, jobs in ipairs(status.replicatedJobsStatus or {}) do
  local ready = (jobs.ready or 0) + (jobs.succeeded or 0)
  done = done + ready
  if (jobs.active or 0) > (jobs.ready or 0) or ready == 0 then
    table.insert(waiting, jobs.name .. ": " .. (jobs.active or 0) .. " active, " .. (jobs.ready or 0) .. " ready")
  end
end
local tally = done .. "/" .. expected .. " jobs ready or succeeded"
if done == expected then
  return {status = "Healthy", message = "Running: " .. tally}
end
local message = "Not running yet: " .. tally
if #waiting > 0 then
  message = message .. " (" .. table.concat(waiting, "; ") .. ")"
end
return {status = "Progressing", message = message .. "; its pods wait to be scheduled or started (under a gang scheduler, its PodGroup says what holds them)"}
